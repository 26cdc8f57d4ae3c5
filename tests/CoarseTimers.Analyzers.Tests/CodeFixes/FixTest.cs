using System.Linq;
using System.Threading.Tasks;
using CoarseTimers.Analyzers.Tests.Infrastructure;
using Microsoft.CodeAnalysis.CodeFixes;
using Microsoft.CodeAnalysis.Diagnostics;

namespace CoarseTimers.Analyzers.Tests.CodeFixes;

/// <summary>
/// The one code-fix verifier. <c>Verify*</c> runs with every call site hot (<c>coarse_timers.hot_path_scope = all</c>), so
/// a test shows the rewrite rather than the hot-path model; <c>Verify*UnderDefaultModel</c> lets the default model
/// decide which sites are flagged. Each run also checks Fix All at document, project and solution scope with the
/// rule's one equivalence key, that the fixed code compiles, and that no CT diagnostic is left.
/// </summary>
internal static class FixTest<TAnalyzer, TCodeFix>
    where TAnalyzer : DiagnosticAnalyzer, new()
    where TCodeFix : CodeFixProvider, new()
{
    /// <summary>The <c>.editorconfig</c> line that makes every call site hot.</summary>
    public const string AllHotPaths = "coarse_timers.hot_path_scope = all";

    /// <summary>
    /// A fix test whose one equivalence key must be the rule's; <paramref name="editorConfig"/> holds <c>[*.cs]</c>
    /// lines (null: the default hot-path model, loops and <c>[HotPath]</c>).
    /// </summary>
    public static CodeFixVerifier<TAnalyzer, TCodeFix> Create(string source, string fixedSource, bool referenceRuntime = true, string? editorConfig = AllHotPaths)
    {
        var test = new CodeFixVerifier<TAnalyzer, TCodeFix>(referenceRuntime)
        {
            TestCode = source,
            FixedCode = fixedSource,
            CodeActionEquivalenceKey = new TCodeFix().FixableDiagnosticIds.Single(),
        };
        if (editorConfig is not null)
        {
            test.TestState.AnalyzerConfigFiles.Add(EditorConfig(editorConfig));
        }

        return test;
    }

    public static (string Path, string Content) EditorConfig(string lines) => ("/.editorconfig", "root = true\n\n[*.cs]\n" + lines + "\n");

    /// <summary>Every site hot: each diagnostic in <paramref name="source"/>'s markup is fixed into <paramref name="fixedSource"/>.</summary>
    public static Task VerifyAsync(string source, string fixedSource) => Create(source, fixedSource).RunAsync();

    /// <summary>Every site hot: the diagnostics in <paramref name="source"/>'s markup are reported, and no fix changes anything.</summary>
    public static Task VerifyNotOfferedAsync(string source, bool referenceRuntime = true) => Create(source, source, referenceRuntime).RunAsync();

    /// <summary>As <see cref="VerifyAsync"/>, with the default hot-path model (loops, per-item delegates, timeouts, <c>[HotPath]</c>) deciding which sites are flagged.</summary>
    public static Task VerifyUnderDefaultModelAsync(string source, string fixedSource) => Create(source, fixedSource, editorConfig: null).RunAsync();

    /// <summary>As <see cref="VerifyNotOfferedAsync"/>, with the default hot-path model.</summary>
    public static Task VerifyNotOfferedUnderDefaultModelAsync(string source, bool referenceRuntime = true) => Create(source, source, referenceRuntime, editorConfig: null).RunAsync();
}
