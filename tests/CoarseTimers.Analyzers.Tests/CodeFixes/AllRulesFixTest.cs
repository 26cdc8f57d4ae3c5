using System.Collections.Generic;
using CoarseTimers.Analyzers.Rules;
using CoarseTimers.Analyzers.Tests.Infrastructure;
using CoarseTimers.CodeFixes.Fixes;
using Microsoft.CodeAnalysis.CodeFixes;
using Microsoft.CodeAnalysis.CSharp.Testing;
using Microsoft.CodeAnalysis.Diagnostics;
using Microsoft.CodeAnalysis.Testing;

namespace CoarseTimers.Analyzers.Tests.CodeFixes;

/// <summary>
/// Every analyzer and every code fix at once, as in the IDE or <c>dotnet format analyzers</c>: sites of different rules
/// nest and share statements, and each rule's fixes must leave the others' intact.
/// </summary>
internal sealed class AllRulesFixTest : CSharpCodeFixTest<EmptyDiagnosticAnalyzer, EmptyCodeFixProvider, DefaultVerifier>
{
    public AllRulesFixTest()
    {
        ReferenceAssemblies = TestReferences.None;
        TestState.AdditionalReferences.AddRange(TestReferences.Net80);
        TestState.AdditionalReferences.Add(TestReferences.Runtime);
        FixedState.AdditionalReferences.AddRange(TestReferences.Net80);
        FixedState.AdditionalReferences.Add(TestReferences.Runtime);
        TestState.AnalyzerConfigFiles.Add(FixTest<TaskDelayAnalyzer, TaskDelayCodeFixProvider>.EditorConfig(FixTest<TaskDelayAnalyzer, TaskDelayCodeFixProvider>.AllHotPaths));
    }

    protected override IEnumerable<DiagnosticAnalyzer> GetDiagnosticAnalyzers() =>
        [new TaskDelayAnalyzer(), new TimeoutCancellationTokenSourceAnalyzer(), new ThreadingTimerAnalyzer(), new SpinUntilAnalyzer()];

    protected override IEnumerable<CodeFixProvider> GetCodeFixProviders() =>
        [new TaskDelayCodeFixProvider(), new TimeoutCancellationTokenSourceCodeFixProvider(), new ThreadingTimerCodeFixProvider(), new SpinUntilCodeFixProvider()];
}
