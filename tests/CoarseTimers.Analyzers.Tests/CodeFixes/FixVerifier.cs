using System.Threading.Tasks;
using Microsoft.CodeAnalysis.CodeFixes;
using Microsoft.CodeAnalysis.Diagnostics;

namespace CoarseTimers.Analyzers.Tests.CodeFixes;

/// <summary>Shorthands with the default hot-path model (no option set unless given); built on <see cref="FixTest{TAnalyzer, TCodeFix}"/>.</summary>
internal static class FixVerifier<TAnalyzer, TCodeFix>
    where TAnalyzer : DiagnosticAnalyzer, new()
    where TCodeFix : CodeFixProvider, new()
{
    /// <summary>Fixes every diagnostic (markup in <paramref name="source"/>) one by one and with Fix All; the result must compile.</summary>
    public static Task VerifyAsync(string source, string fixedSource, string? editorConfig = null) =>
        FixTest<TAnalyzer, TCodeFix>.Create(source, fixedSource, editorConfig: editorConfig).RunAsync();

    /// <summary>The diagnostics in <paramref name="source"/> are reported, but no fix is offered.</summary>
    public static Task VerifyNoFixAsync(string source, string? editorConfig = null, bool referenceRuntime = true) =>
        FixTest<TAnalyzer, TCodeFix>.Create(source, source, referenceRuntime, editorConfig).RunAsync();
}
