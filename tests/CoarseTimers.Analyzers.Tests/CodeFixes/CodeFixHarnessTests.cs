using System.Threading.Tasks;
using CoarseTimers.Analyzers.Rules;
using CoarseTimers.Analyzers.Tests.Infrastructure;
using CoarseTimers.CodeFixes.Fixes;
using Xunit;

namespace CoarseTimers.Analyzers.Tests.CodeFixes;

/// <summary>Proves the test harness: a code-fix run, with no reference pack download.</summary>
public class CodeFixHarnessTests
{
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
