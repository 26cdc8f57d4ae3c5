using System.Threading.Tasks;
using CoarseTimers.Analyzers.Tests.Infrastructure;
using Microsoft.CodeAnalysis.CodeFixes;
using Microsoft.CodeAnalysis.Diagnostics;

namespace CoarseTimers.Analyzers.Tests.CodeFixes;

/// <summary>Shorthands over <see cref="CodeFixVerifier{TAnalyzer, TCodeFix}"/> for the fix tests.</summary>
internal static class FixVerifier<TAnalyzer, TCodeFix>
    where TAnalyzer : DiagnosticAnalyzer, new()
    where TCodeFix : CodeFixProvider, new()
{
    /// <summary>Fixes every diagnostic (markup in <paramref name="source"/>) one by one and with Fix All; the result must compile.</summary>
    public static Task VerifyAsync(string source, string fixedSource, string? editorConfig = null)
    {
        var test = new CodeFixVerifier<TAnalyzer, TCodeFix> { TestCode = source, FixedCode = fixedSource };
        AddEditorConfig(test, editorConfig);
        return test.RunAsync();
    }

    /// <summary>The diagnostics in <paramref name="source"/> are reported, but no fix is offered.</summary>
    public static Task VerifyNoFixAsync(string source, string? editorConfig = null, bool referenceRuntime = true)
    {
        var test = new CodeFixVerifier<TAnalyzer, TCodeFix>(referenceRuntime) { TestCode = source, FixedCode = source };
        AddEditorConfig(test, editorConfig);
        return test.RunAsync();
    }

    public static void AddEditorConfig(CodeFixVerifier<TAnalyzer, TCodeFix> test, string? lines)
    {
        if (lines is not null)
        {
            var config = ("/.editorconfig", "root = true\n\n[*.cs]\n" + lines + "\n");
            test.TestState.AnalyzerConfigFiles.Add(config);
        }
    }
}
