using System;
using System.Collections.Generic;
using System.Collections.Immutable;
using System.Threading.Tasks;
using CoarseTimers.Analyzers.Rules;
using CoarseTimers.Analyzers.Tests.Infrastructure;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CSharp;
using Microsoft.CodeAnalysis.Diagnostics;
using Xunit;

namespace CoarseTimers.Analyzers.Tests.Analyzers;

/// <summary>Code being typed: no analyzer may throw (the harness fails on AD0001).</summary>
public class RobustnessTests
{
    public static TheoryData<string> Incomplete => new()
    {
        "class C { async System.Threading.Tasks.Task M() { for (;;) { await System.Threading.Tasks.Task.Delay(",
        "class C { void M() { for (;;) { new System.Threading.Timer( } } }",
        "class C { void M() { var cts = new System.Threading.CancellationTokenSource(; cts.CancelAfter(); } }",
        "class C { void M() { System.Threading.SpinWait.SpinUntil(() => Unknown.Thing, Missing); } }",
        "class C { void M() { while (true) { Undefined.Delay(5); new Nope(1); } }",
        "using static System.Threading.Tasks.Task; class C { void M() { foreach (var x in ) { Delay(x, ) } } }",
        "[CoarseTimers.HotPath] class C { System.Threading.Tasks.Task M() => System.Threading.Tasks.Task.Delay(TimeSpan.FromSeconds(",
    };

    [Theory]
    [MemberData(nameof(Incomplete))]
    public async Task No_analyzer_throws_on_incomplete_code(string source)
    {
        await Run<TaskDelayAnalyzer>(source);
        await Run<TimeoutCancellationTokenSourceAnalyzer>(source);
        await Run<ThreadingTimerAnalyzer>(source);
        await Run<SpinUntilAnalyzer>(source);
    }

    private static async Task Run<TAnalyzer>(string source)
        where TAnalyzer : DiagnosticAnalyzer, new()
    {
        var compilation = CSharpCompilation.Create("Broken", new[] { CSharpSyntaxTree.ParseText(source) },
            TestReferences.Net80.Add(TestReferences.Runtime), new CSharpCompilationOptions(OutputKind.DynamicallyLinkedLibrary));
        var exceptions = new List<Exception>();
        var options = new CompilationWithAnalyzersOptions(new AnalyzerOptions(ImmutableArray<AdditionalText>.Empty),
            (exception, _, _) => exceptions.Add(exception), concurrentAnalysis: false, logAnalyzerExecutionTime: false);
        var diagnostics = await compilation.WithAnalyzers(ImmutableArray.Create<DiagnosticAnalyzer>(new TAnalyzer()), options).GetAllDiagnosticsAsync();

        // Whatever a rule reports on broken code is fine; an exception (AD0001) is not.
        Assert.Empty(exceptions);
        Assert.DoesNotContain(diagnostics, d => d.Id == "AD0001");
    }
}
