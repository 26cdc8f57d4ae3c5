using Microsoft.CodeAnalysis.CodeFixes;
using Microsoft.CodeAnalysis.CSharp.Testing;
using Microsoft.CodeAnalysis.Diagnostics;
using Microsoft.CodeAnalysis.Testing;

namespace CoarseTimers.Analyzers.Tests.Infrastructure;

/// <summary>
/// Code-fix test on net8.0 reference assemblies plus the CoarseTimers runtime. Compiler diagnostics stay checked,
/// so fixed code that does not compile fails the test.
/// </summary>
internal sealed class CodeFixVerifier<TAnalyzer, TCodeFix> : CSharpCodeFixTest<TAnalyzer, TCodeFix, DefaultVerifier>
    where TAnalyzer : DiagnosticAnalyzer, new()
    where TCodeFix : CodeFixProvider, new()
{
    public CodeFixVerifier(bool referenceRuntime = true)
    {
        ReferenceAssemblies = TestReferences.None;
        TestState.AdditionalReferences.AddRange(TestReferences.Net80);
        FixedState.AdditionalReferences.AddRange(TestReferences.Net80);
        if (referenceRuntime)
        {
            TestState.AdditionalReferences.Add(TestReferences.Runtime);
            FixedState.AdditionalReferences.Add(TestReferences.Runtime);
        }
    }
}
