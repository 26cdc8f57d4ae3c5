using System.Threading.Tasks;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CSharp.Testing;
using Microsoft.CodeAnalysis.Diagnostics;
using Microsoft.CodeAnalysis.Testing;

namespace CoarseTimers.Analyzers.Tests.Infrastructure;

/// <summary>Analyzer test on net8.0 reference assemblies plus the CoarseTimers runtime.</summary>
internal sealed class AnalyzerVerifier<TAnalyzer> : CSharpAnalyzerTest<TAnalyzer, DefaultVerifier>
    where TAnalyzer : DiagnosticAnalyzer, new()
{
    public AnalyzerVerifier(bool referenceRuntime = true)
    {
        ReferenceAssemblies = TestReferences.None;
        TestState.AdditionalReferences.AddRange(TestReferences.Net80);
        if (referenceRuntime)
        {
            TestState.AdditionalReferences.Add(TestReferences.Runtime);
        }
    }

    public static Task VerifyAsync(string source, params DiagnosticResult[] expected) => VerifyAsync(source, editorConfig: null, expected);

    /// <summary>
    /// Runs the analyzer on <paramref name="source"/> with optional .editorconfig lines for <c>[*.cs]</c>, e.g.
    /// <c>coarse_timers.hot_path_scope = all</c>.
    /// </summary>
    public static Task VerifyAsync(string source, string? editorConfig, params DiagnosticResult[] expected)
    {
        var test = new AnalyzerVerifier<TAnalyzer> { TestCode = source };
        test.WithEditorConfig(editorConfig);
        test.ExpectedDiagnostics.AddRange(expected);
        return test.RunAsync();
    }

    public AnalyzerVerifier<TAnalyzer> WithEditorConfig(string? lines)
    {
        if (lines is not null)
        {
            TestState.AnalyzerConfigFiles.Add(("/.editorconfig", "root = true\n\n[*.cs]\n" + lines + "\n"));
        }

        return this;
    }

    public AnalyzerVerifier<TAnalyzer> AsConsoleApplication()
    {
        TestState.OutputKind = OutputKind.ConsoleApplication;
        return this;
    }
}
