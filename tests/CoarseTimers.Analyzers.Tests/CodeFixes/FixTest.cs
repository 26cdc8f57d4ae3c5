using System.Linq;
using System.Threading.Tasks;
using CoarseTimers.Analyzers.Tests.Infrastructure;
using Microsoft.CodeAnalysis.CodeFixes;
using Microsoft.CodeAnalysis.Diagnostics;

namespace CoarseTimers.Analyzers.Tests.CodeFixes;

/// <summary>
/// Code-fix tests with every call site hot (<c>coarse_timers.hot_path_scope = all</c>), so a test shows the rewrite
/// rather than the hot-path model. Each run also checks Fix All at document, project and solution scope with the
/// rule's one equivalence key, that the fixed code compiles, and that no CT diagnostic is left.
/// </summary>
internal static class FixTest<TAnalyzer, TCodeFix>
    where TAnalyzer : DiagnosticAnalyzer, new()
    where TCodeFix : CodeFixProvider, new()
{
    public const string AllHotPaths = "root = true\n\n[*.cs]\ncoarse_timers.hot_path_scope = all\n";

    public static CodeFixVerifier<TAnalyzer, TCodeFix> Create(string source, string fixedSource, bool referenceRuntime = true)
    {
        var test = new CodeFixVerifier<TAnalyzer, TCodeFix>(referenceRuntime)
        {
            TestCode = source,
            FixedCode = fixedSource,
            CodeActionEquivalenceKey = new TCodeFix().FixableDiagnosticIds.Single(),
        };
        test.TestState.AnalyzerConfigFiles.Add(("/.editorconfig", AllHotPaths));
        return test;
    }

    public static Task VerifyAsync(string source, string fixedSource) => Create(source, fixedSource).RunAsync();

    /// <summary>The diagnostics in <paramref name="source"/>'s markup are reported, and no fix changes anything.</summary>
    public static Task VerifyNotOfferedAsync(string source, bool referenceRuntime = true) => Create(source, source, referenceRuntime).RunAsync();
}
