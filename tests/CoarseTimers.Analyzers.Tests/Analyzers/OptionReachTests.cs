using System.Threading.Tasks;
using CoarseTimers.Analyzers.Rules;
using CoarseTimers.Analyzers.Tests.Infrastructure;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.Testing;
using Xunit;
using VerifyDelay = CoarseTimers.Analyzers.Tests.Infrastructure.AnalyzerVerifier<CoarseTimers.Analyzers.Rules.TaskDelayAnalyzer>;
using VerifySource = CoarseTimers.Analyzers.Tests.Infrastructure.AnalyzerVerifier<CoarseTimers.Analyzers.Rules.TimeoutCancellationTokenSourceAnalyzer>;

namespace CoarseTimers.Analyzers.Tests.Rules;

/// <summary>
/// An option reaches every judgement it names: the polling threshold also decides which callers' loops are paced, and
/// analyze_test_projects also covers a test project's test-named namespaces and types.
/// </summary>
public class OptionReachTests
{
    private const string PollerWithCallee = """
        using System.Threading;
        using System.Threading.Tasks;

        class Poller
        {
            private bool _running = true;

            public async Task RunAsync()
            {
                while (_running) { await WorkAsync(); await Task.Delay(50); }
            }

            private async Task WorkAsync() { using var cts = new CancellationTokenSource(5000); await Task.Yield(); }
        }
        """;

    private static DiagnosticResult Source(int location, string reason) =>
        new DiagnosticResult(DiagnosticIds.TimeoutCancellationTokenSource, DiagnosticSeverity.Warning).WithLocation(location)
            .WithArguments("new CancellationTokenSource(timeout)", reason);

    [Fact]
    public Task A_callers_loop_paced_by_a_delay_above_the_polling_threshold_makes_its_callee_cold() =>
        VerifySource.VerifyAsync(PollerWithCallee);

    [Fact]
    public Task A_callers_loop_whose_delay_the_polling_threshold_calls_polling_is_not_paced() =>
        VerifySource.VerifyAsync(
            PollerWithCallee.Replace("using var cts = new CancellationTokenSource(5000);", "using var cts = {|#0:new CancellationTokenSource(5000)|};"),
            "coarse_timers.polling_threshold_ms = 100",
            Source(0, "per-operation timeout"));

    [Fact]
    public Task A_short_sleep_is_polling_in_its_callers_loop_only_when_the_callers_delay_is_not_pacing_under_the_threshold() =>
        Task.WhenAll(
            VerifyDelay.VerifyAsync("""
                using System.Threading.Tasks;

                class Poller
                {
                    private bool _running = true;
                    public async Task RunAsync() { while (_running) { await PollOnceAsync(); await {|#0:Task.Delay(50)|}; } }
                    private async Task PollOnceAsync() { await {|#1:Task.Delay(5)|}; }
                }
                """,
                "coarse_timers.polling_threshold_ms = 100",
                new DiagnosticResult(DiagnosticIds.TaskDelay, DiagnosticSeverity.Warning).WithLocation(0).WithArguments("short polling delay in a loop"),
                new DiagnosticResult(DiagnosticIds.TaskDelay, DiagnosticSeverity.Warning).WithLocation(1).WithArguments("short polling delay in a method its callers call in a loop")),
            VerifyDelay.VerifyAsync("""
                using System.Threading.Tasks;

                class Poller
                {
                    private bool _running = true;
                    public async Task RunAsync() { while (_running) { await PollOnceAsync(); await Task.Delay(12); } }
                    private async Task PollOnceAsync() { await Task.Delay(2); }
                }
                """,
                "coarse_timers.polling_threshold_ms = 10"));

    [Fact]
    public Task A_run_loop_that_waits_in_a_finally_is_paced() =>
        VerifySource.VerifyAsync("""
            using System.Threading;
            using System.Threading.Tasks;

            class Prober
            {
                public Task WorkAsync(CancellationToken ct) => Task.CompletedTask;

                public async Task RunAsync()
                {
                    while (true)
                    {
                        try { using var cts = new CancellationTokenSource(500); await WorkAsync(cts.Token); }
                        finally { await Task.Delay(2000); }
                    }
                }
            }
            """);

    [Fact]
    public Task A_local_function_given_to_a_periodic_timer_runs_once_per_period_and_a_SelectMany_result_selector_per_item() =>
        Task.WhenAll(
            VerifySource.VerifyAsync("""
                using System.Threading;

                class Refresher
                {
                    private Timer? _timer;

                    public void Begin()
                    {
                        _timer = new Timer(OnTick, null, 0, 5000);
                        void OnTick(object? state) { using var cts = new CancellationTokenSource(500); Refresh(cts.Token); }
                    }

                    private static void Refresh(CancellationToken token) { }
                }
                """),
            VerifyDelay.VerifyAsync("""
                using System.Linq;
                using System.Threading.Tasks;

                class Fanout
                {
                    public Task[] Each(int[] peers, int[] parts) => peers.SelectMany(p => parts, (p, part) => {|#0:Task.Delay(5000)|}).ToArray();
                    public Task[] Query(int[] peers, int[] parts) => (from p in peers from part in parts select {|#1:Task.Delay(5000)|}).ToArray();
                }
                """,
                new DiagnosticResult(DiagnosticIds.TaskDelay, DiagnosticSeverity.Warning).WithLocation(0).WithArguments("per-item delegate"),
                new DiagnosticResult(DiagnosticIds.TaskDelay, DiagnosticSeverity.Warning).WithLocation(1).WithArguments("per-item delegate")));

    [Fact]
    public Task Analyze_test_projects_covers_the_projects_test_named_namespaces_and_types()
    {
        var test = new AnalyzerVerifier<TimeoutCancellationTokenSourceAnalyzer>
        {
            TestCode = """
                using System.Threading;
                using System.Threading.Tasks;

                namespace Contoso.Gateway.Tests;

                public sealed class GatewayTests
                {
                    public async Task SendWithTimeoutAsync() { using var cts = {|#0:new CancellationTokenSource(3000)|}; await Task.Yield(); }
                }
                """,
        };
        test.TestState.AdditionalReferences.Add(TestFrameworkReference.Create("xunit.core"));
        test.WithEditorConfig("coarse_timers.analyze_test_projects = true");
        test.ExpectedDiagnostics.Add(Source(0, "per-operation timeout"));
        return test.RunAsync();
    }
}
