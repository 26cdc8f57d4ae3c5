using System.Threading.Tasks;
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

    public static Task VerifyAsync(string source, params DiagnosticResult[] expected)
    {
        var test = new AnalyzerVerifier<TAnalyzer> { TestCode = source };
        test.ExpectedDiagnostics.AddRange(expected);
        return test.RunAsync();
    }
}
