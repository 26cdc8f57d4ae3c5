using System.Threading.Tasks;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.Testing;
using Xunit;
using Verify = CoarseTimers.Analyzers.Tests.Infrastructure.AnalyzerVerifier<CoarseTimers.Analyzers.Rules.SpinUntilAnalyzer>;

namespace CoarseTimers.Analyzers.Tests.Rules;

public partial class SpinUntilTests
{
    private static DiagnosticResult Expected(string signal) =>
        new DiagnosticResult(DiagnosticIds.SpinUntil, DiagnosticSeverity.Warning).WithLocation(0).WithArguments(signal);

    [Theory]
    [InlineData("{|#0:SpinWait.SpinUntil(() => _ready, 100)|};", "constant timeout of 100 ms")]
    [InlineData("{|#0:SpinWait.SpinUntil(() => _ready, TimeSpan.FromSeconds(10))|};", "constant timeout of 10000 ms")]
    [InlineData("var sw = Stopwatch.StartNew(); {|#0:SpinWait.SpinUntil(() => sw.ElapsedMilliseconds > 2)|};", "predicate reads a clock: Stopwatch.ElapsedMilliseconds")]
    [InlineData("var end = DateTime.UtcNow; {|#0:SpinWait.SpinUntil(() => DateTime.UtcNow > end)|};", "predicate reads a clock: DateTime.UtcNow")]
    [InlineData("{|#0:SpinWait.SpinUntil(() => Environment.TickCount64 > 5)|};", "predicate reads a clock: Environment.TickCount64")]
    [InlineData("{|#0:SpinWait.SpinUntil(() => File.Exists(\"x\"))|};", "predicate blocks or does I/O: File.Exists")]
    [InlineData("{|#0:SpinWait.SpinUntil(() => { Thread.Sleep(0); return _ready; })|};", "predicate blocks or does I/O: Thread.Sleep")]
    [InlineData("{|#0:SpinWait.SpinUntil(() => Task.FromResult(true).Result)|};", "predicate blocks or does I/O: Task.Result")]
    [InlineData("{|#0:SpinWait.SpinUntil(() => _event.WaitOne(0))|};", "predicate blocks or does I/O: WaitHandle.WaitOne")]
    [InlineData("{|#0:SpinWait.SpinUntil(Slow)|};", "predicate method 'Slow' reads a clock: Stopwatch.GetTimestamp")]
    [InlineData("{|#0:SpinWait.SpinUntil(Local)|}; bool Local() => File.Exists(\"x\");", "predicate method 'Local' blocks or does I/O: File.Exists")]
    [InlineData("for (;;) { {|#0:SpinWait.SpinUntil(() => _ready)|}; }", "hot path: inside a loop")]
    [InlineData("{|#0:SpinWait.SpinUntil(() => _ready, _timeout)|};", "configured timeout")]
    public Task Long_running_waits_are_flagged_with_the_signal(string body, string signal) =>
        Verify.VerifyAsync(Wrap(body), Expected(signal));

    [Theory]
    [InlineData("SpinWait.SpinUntil(() => _ready);")]
    [InlineData("SpinWait.SpinUntil(() => Volatile.Read(ref _flag) == 1);")]
    [InlineData("SpinWait.SpinUntil(() => Interlocked.CompareExchange(ref _flag, 0, 0) == 1, 0);")]
    [InlineData("SpinWait.SpinUntil(Fast);")]
    public Task Short_field_reads_are_not_flagged(string body) =>
        Verify.VerifyAsync(Wrap(body));

    [Fact]
    public Task Long_wait_threshold_is_configurable() =>
        Verify.VerifyAsync(Wrap("SpinWait.SpinUntil(() => _ready, 100);"), "coarse_timers.spin_long_wait_ms = 500");

    [Fact]
    public Task Scope_declared_still_reports_long_wait_signals() =>
        Verify.VerifyAsync(Wrap("for (;;) { SpinWait.SpinUntil(() => _ready); } {|#0:SpinWait.SpinUntil(() => _ready, 50)|};"),
            "coarse_timers.hot_path_scope = declared", Expected("constant timeout of 50 ms"));

    [Theory]
    [InlineData("Start")]
    [InlineData("Dispose")]
    public Task Long_waits_in_lifecycle_members_are_cold(string name) =>
        Verify.VerifyAsync(Wrap("SpinWait.SpinUntil(() => _ready, 100); SpinWait.SpinUntil(() => _ready, _timeout);").Replace("void M()", $"void {name}()"));

    [Fact]
    public Task Long_waits_in_helpers_only_cold_code_calls_are_cold() =>
        Verify.VerifyAsync("""
            using System;
            using System.Threading;

            class Batcher : IDisposable
            {
                private int _pending;

                // Called only from Dispose: it waits as rarely as Dispose does.
                void FlushAndWait() => SpinWait.SpinUntil(() => Volatile.Read(ref _pending) == 0, TimeSpan.FromSeconds(2));

                // Called per item as well: the long wait speaks.
                void WaitForRoom() => {|#0:SpinWait.SpinUntil(() => Volatile.Read(ref _pending) < 100, TimeSpan.FromSeconds(2))|};

                public void Add() { WaitForRoom(); Interlocked.Increment(ref _pending); }

                public void Dispose() { WaitForRoom(); FlushAndWait(); }
            }
            """,
            Expected("constant timeout of 2000 ms"));

    [Fact]
    public Task Long_waits_in_test_code_are_cold_unless_declared() =>
        Verify.VerifyAsync(Wrap("SpinWait.SpinUntil(() => _ready, 100);").Replace("class C", "class MonitorTests") +
            "\nclass D { [CoarseTimers.HotPath] void M() { {|#0:SpinWait.SpinUntil(() => true, 100)|}; } }\nclass MoreTests { [CoarseTimers.HotPath] void M() { {|#1:SpinWait.SpinUntil(() => true, 100)|}; } }",
            Expected("constant timeout of 100 ms"),
            new DiagnosticResult(DiagnosticIds.SpinUntil, DiagnosticSeverity.Warning).WithLocation(1).WithArguments("hot path: declared hot path"));

    private static string Wrap(string body) => $$"""
        using System;
        using System.Diagnostics;
        using System.IO;
        using System.Threading;
        using System.Threading.Tasks;

        class C
        {
            private volatile bool _ready;
            private int _flag;
            private readonly int _timeout = 100;
            private readonly ManualResetEvent _event = new(false);

            void M()
            {
                {{body}}
            }

            bool Slow() => Stopwatch.GetTimestamp() > 0;
            bool Fast() => _ready;
        }
        """;
}
