using System.Threading.Tasks;
using CoarseTimers.Analyzers.Rules;
using CoarseTimers.Analyzers.Tests.Infrastructure;
using CoarseTimers.CodeFixes.Fixes;
using Microsoft.CodeAnalysis.Testing;
using Xunit;

namespace CoarseTimers.Analyzers.Tests;

/// <summary>Proves the test harness: an analyzer run and a code-fix run, with no reference pack download.</summary>
public class InfrastructureSmokeTests
{
    [Fact]
    public Task Analyzer_reports_delay_in_loop()
    {
        const string source = """
            using System.Threading.Tasks;

            class C
            {
                async Task M()
                {
                    for (var i = 0; i < 10; i++)
                    {
                        await {|#0:Task.Delay(5)|};
                    }
                }
            }
            """;
        return AnalyzerVerifier<TaskDelayAnalyzer>.VerifyAsync(source,
            new DiagnosticResult(DiagnosticIds.TaskDelay, Microsoft.CodeAnalysis.DiagnosticSeverity.Warning).WithLocation(0).WithArguments("inside a loop"));
    }

    [Fact]
    public Task CodeFix_rewrites_delay_in_loop()
    {
        const string source = """
            using System.Threading.Tasks;

            class C
            {
                async Task M()
                {
                    for (var i = 0; i < 10; i++)
                    {
                        await {|CT0001:Task.Delay(5)|};
                    }
                }
            }
            """;
        const string fixedSource = """
            using System.Threading.Tasks;

            class C
            {
                async Task M()
                {
                    for (var i = 0; i < 10; i++)
                    {
                        await CoarseTimers.CoarseTimer.Delay(5);
                    }
                }
            }
            """;
        return CodeFixVerifier<TaskDelayAnalyzer, TaskDelayCodeFixProvider>.VerifyAsync(source, fixedSource);
    }
}
