using System.Threading.Tasks;
using CoarseTimers.Analyzers.Rules;
using CoarseTimers.Analyzers.Tests.Infrastructure;
using Microsoft.CodeAnalysis.Testing;
using Xunit;

namespace CoarseTimers.Analyzers.Tests.Analyzers;

/// <summary>Proves the test harness: an analyzer run, with no reference pack download.</summary>
public class AnalyzerHarnessTests
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
}
