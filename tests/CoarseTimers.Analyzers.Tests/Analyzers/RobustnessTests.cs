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

    // A call the compiler rejects for its arguments, not for a missing type, is not a timeout: its count or its known
    // types rule every timeout overload out (the unresolved-call fallback is for arguments of unknown type).
    [Theory]
    [InlineData("using var c = new CancellationTokenSource(1, 2, 3);")]
    [InlineData("using var c = new CancellationTokenSource(null);")]
    [InlineData("using var c = new CancellationTokenSource(\"5\");")]
    [InlineData("using var c = new CancellationTokenSource(true);")]
    [InlineData("using var c = new CancellationTokenSource(); c.CancelAfter(1, 2);")]
    [InlineData("using var c = new CancellationTokenSource(); c.CancelAfter(null);")]
    [InlineData("using var c = new CancellationTokenSource(); c.CancelAfter(\"5\");")]
    public async Task A_call_whose_known_arguments_fit_no_timeout_overload_is_not_reported(string statement)
    {
        var diagnostics = await Run<TimeoutCancellationTokenSourceAnalyzer>(BrokenMember(statement));
        Assert.DoesNotContain(diagnostics, d => d.Id == DiagnosticIds.TimeoutCancellationTokenSource);
    }

    [Theory]
    [InlineData("using var c = new CancellationTokenSource(settings.Timeout);")]
    [InlineData("using var c = new CancellationTokenSource(); c.CancelAfter(settings.Timeout);")]
    public async Task A_call_whose_timeout_has_a_missing_type_is_still_reported(string statement)
    {
        var diagnostics = await Run<TimeoutCancellationTokenSourceAnalyzer>(BrokenMember(statement));
        Assert.Contains(diagnostics, d => d.Id == DiagnosticIds.TimeoutCancellationTokenSource);
    }

    private static string BrokenMember(string statement) => $$"""
        using System.Threading;
        class C
        {
            void M(Missing.Settings settings)
            {
                {{statement}}
            }
        }
        """;

    private static async Task<ImmutableArray<Diagnostic>> Run<TAnalyzer>(string source)
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
        return diagnostics;
    }
}
