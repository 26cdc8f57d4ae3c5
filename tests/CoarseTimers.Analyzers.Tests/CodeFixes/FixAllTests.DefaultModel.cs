using System.Threading.Tasks;
using CoarseTimers.Analyzers.Rules;
using CoarseTimers.CodeFixes.Fixes;
using Xunit;

namespace CoarseTimers.Analyzers.Tests.CodeFixes;

/// <summary>Fix All across documents and projects, and nested sites of one rule, with nothing lost.</summary>
public partial class FixAllTests
{
    /// <summary>
    /// Fixing a site must not make another look hot: a timeout in a method only a periodic timer's callback calls paces
    /// with the timer, and still does once the timer is a <c>CoarseTimer</c> (a probe's Fix All raised a new CT0002 there).
    /// </summary>
    [Fact]
    public Task Fixing_a_periodic_timer_leaves_what_its_callback_calls_cold()
    {
        var test = new AllRulesFixTest
        {
            TestCode = """
                using System;
                using System.Threading;
                using System.Threading.Tasks;

                sealed class Subscription : IDisposable
                {
                    private static readonly TimeSpan PingTimeout = TimeSpan.FromSeconds(2);
                    private readonly Timer _heartbeat;

                    [CoarseTimers.HotPath]
                    public Subscription(TimeSpan every) => _heartbeat = {|CT0003:new Timer(OnHeartbeat, null, every, every)|};

                    private void OnHeartbeat(object? state) => _ = PingAsync();

                    internal async Task PingAsync()
                    {
                        using var cts = new CancellationTokenSource(PingTimeout);
                        await Task.Delay(1, cts.Token);
                    }

                    public void Dispose() => _heartbeat.Dispose();
                }
                """,
            FixedCode = """
                using System;
                using System.Threading;
                using System.Threading.Tasks;
                using CoarseTimers;

                sealed class Subscription : IDisposable
                {
                    private static readonly TimeSpan PingTimeout = TimeSpan.FromSeconds(2);
                    private readonly CoarseTimer _heartbeat;

                    [CoarseTimers.HotPath]
                    public Subscription(TimeSpan every) => _heartbeat = new CoarseTimer(OnHeartbeat, null, every, every);

                    private void OnHeartbeat(object? state) => _ = PingAsync();

                    internal async Task PingAsync()
                    {
                        using var cts = new CancellationTokenSource(PingTimeout);
                        await Task.Delay(1, cts.Token);
                    }

                    public void Dispose() => _heartbeat.Dispose();
                }
                """,
        };
        test.TestState.AnalyzerConfigFiles.Clear();
        return test.RunAsync();
    }

    [Fact]
    public Task Nested_sites_of_one_rule_are_all_fixed() =>
        FixTest<SpinUntilAnalyzer, SpinUntilCodeFixProvider>.VerifyUnderDefaultModelAsync("""
            using System.Threading;

            class C
            {
                private volatile bool _ready;

                void M()
                {
                    {|CT0004:SpinWait.SpinUntil(() => {|CT0004:SpinWait.SpinUntil(() => _ready, 5)|}, 50)|};
                }
            }
            """, """
            using System.Threading;
            using CoarseTimers;

            class C
            {
                private volatile bool _ready;

                void M()
                {
                    SpinThenBlock.SpinUntil(() => SpinThenBlock.SpinUntil(() => _ready, 5), 50);
                }
            }
            """);
}
