using System.Threading.Tasks;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.Testing;
using Xunit;
using VerifyDelay = CoarseTimers.Analyzers.Tests.Infrastructure.AnalyzerVerifier<CoarseTimers.Analyzers.Rules.TaskDelayAnalyzer>;
using VerifySource = CoarseTimers.Analyzers.Tests.Infrastructure.AnalyzerVerifier<CoarseTimers.Analyzers.Rules.TimeoutCancellationTokenSourceAnalyzer>;
using VerifySpin = CoarseTimers.Analyzers.Tests.Infrastructure.AnalyzerVerifier<CoarseTimers.Analyzers.Rules.SpinUntilAnalyzer>;
using VerifyTimer = CoarseTimers.Analyzers.Tests.Infrastructure.AnalyzerVerifier<CoarseTimers.Analyzers.Rules.ThreadingTimerAnalyzer>;

namespace CoarseTimers.Analyzers.Tests.Rules;

/// <summary>
/// The same site written another way is read the same way: each source holds the documented form (the control) and
/// its variants, and all of them must give the same answer.
/// </summary>
public class SyntaxVariantTests
{
    private static DiagnosticResult Delay(int location, string reason) =>
        new DiagnosticResult(DiagnosticIds.TaskDelay, DiagnosticSeverity.Warning).WithLocation(location).WithArguments(reason);

    private static DiagnosticResult Source(int location, string kind, string reason) =>
        new DiagnosticResult(DiagnosticIds.TimeoutCancellationTokenSource, DiagnosticSeverity.Warning).WithLocation(location).WithArguments(kind, reason);

    private static DiagnosticResult Timer(int location, string reason) =>
        new DiagnosticResult(DiagnosticIds.ThreadingTimer, DiagnosticSeverity.Warning).WithLocation(location).WithArguments(reason);

    private static DiagnosticResult Spin(int location, string signal) =>
        new DiagnosticResult(DiagnosticIds.SpinUntil, DiagnosticSeverity.Warning).WithLocation(location).WithArguments(signal);

    [Fact]
    public Task A_source_stored_with_null_coalescing_assignment_is_stored_there() =>
        VerifySource.VerifyAsync("""
            using System.Threading;

            class Call
            {
                private CancellationTokenSource _plain, _coalesced;

                public void ArmPlain() { _plain = {|#0:new CancellationTokenSource(5000)|}; }
                public void ArmCoalesced() { _coalesced ??= {|#1:new CancellationTokenSource(5000)|}; }
                public void ArmLocal() { CancellationTokenSource cts = null; cts ??= {|#2:new CancellationTokenSource(5000)|}; cts.Dispose(); }
            }
            """,
            Source(0, "new CancellationTokenSource(timeout)", "timeout held by its object, one per instance"),
            Source(1, "new CancellationTokenSource(timeout)", "timeout held by its object, one per instance"),
            Source(2, "new CancellationTokenSource(timeout)", "per-operation timeout"));

    [Fact]
    public Task A_timer_stored_with_null_coalescing_assignment_or_disposed_by_using_its_local_is_read_the_same() =>
        VerifyTimer.VerifyAsync("""
            using System.Threading;

            class Op
            {
                private Timer _plain, _coalesced;

                public void Work() { }
                public void ArmPlain() { _plain = {|#0:new Timer(_ => { }, null, 5000, Timeout.Infinite)|}; }
                public void ArmCoalesced() { _coalesced ??= {|#1:new Timer(_ => { }, null, 5000, Timeout.Infinite)|}; }
                public void Finally() { var timer = {|#2:new Timer(_ => { }, null, 5000, Timeout.Infinite)|}; try { Work(); } finally { timer.Dispose(); } }
                public void UsingTheLocal() { var timer = {|#3:new Timer(_ => { }, null, 5000, Timeout.Infinite)|}; using (timer) { Work(); } }
            }
            """,
            Timer(0, "timeout held by its object, one per instance"),
            Timer(1, "timeout held by its object, one per instance"),
            Timer(2, "timeout timer disposed by the code that created it"),
            Timer(3, "timeout timer disposed by the code that created it"));

    [Fact]
    public Task Delays_raced_through_collection_expressions_arrays_of_locals_and_branches_are_timeouts() =>
        VerifyDelay.VerifyAsync("""
            using System.Collections.Generic;
            using System.Threading.Tasks;

            class Race
            {
                public async Task Array(Task w) => await Task.WhenAny(new[] { w, {|#0:Task.Delay(5000)|} });
                public async Task Collection(Task w) => await Task.WhenAny([w, {|#1:Task.Delay(5000)|}]);
                public async Task CollectionLocal(Task w) { List<Task> all = [w, {|#2:Task.Delay(5000)|}]; await Task.WhenAny(all); }
                public async Task Branch(Task w, bool slow) => await Task.WhenAny(w, slow ? {|#3:Task.Delay(5000)|} : {|#4:Task.Delay(1000)|});
                public async Task ArrayOfLocal(Task w) { var t = {|#5:Task.Delay(5000)|}; var all = new[] { w, t }; await Task.WhenAny(all); }

                // Not raced: awaited alone, or a collection that is only awaited as a whole.
                public async Task Alone() { Task[] all = [Task.Delay(5000)]; await Task.WhenAll(all); }
            }
            """,
            Delay(0, "per-operation timeout"), Delay(1, "per-operation timeout"), Delay(2, "per-operation timeout"),
            Delay(3, "per-operation timeout"), Delay(4, "per-operation timeout"), Delay(5, "per-operation timeout"));

    [Fact]
    public Task A_short_sleep_called_from_a_lambda_declared_in_a_loop_body_polls_in_that_loop() =>
        VerifyDelay.VerifyAsync("""
            using System;
            using System.Threading.Tasks;

            class Poller
            {
                private static bool Done() => false;

                private async Task PollOnceAsync() { await {|#0:Task.Delay(5)|}; }

                private async Task PollTwiceAsync() { await Task.Delay(5); }

                public async Task RunAsync()
                {
                    while (!Done())
                    {
                        Func<Task> step = () => PollOnceAsync();
                        await step();
                    }
                }

                // Declared outside the loop: not the loop's body (rule 1), so not a caller in a loop either.
                public async Task RunOutsideAsync()
                {
                    Func<Task> step = () => PollTwiceAsync();
                    while (!Done()) { await step(); }
                }
            }
            """,
            Delay(0, "short polling delay in a method its callers call in a loop"));

    [Fact]
    public Task A_source_chosen_by_a_switch_expression_is_read_as_by_a_conditional() =>
        VerifySource.VerifyAsync("""
            using System.Threading;
            using System.Threading.Tasks;

            class Src
            {
                public Task Work(CancellationToken ct) => Task.CompletedTask;
                public async Task Conditional(bool b) { using var cts = b ? {|#0:new CancellationTokenSource(5000)|} : new CancellationTokenSource(); await Work(cts.Token); }
                public async Task Switch(int m) { using var cts = m switch { 1 => {|#1:new CancellationTokenSource(5000)|}, _ => new CancellationTokenSource() }; await Work(cts.Token); }
                public CancellationTokenSource Factory(int m) => m switch { 1 => {|#2:new CancellationTokenSource(5000)|}, _ => new CancellationTokenSource() };
            }
            """,
            Source(0, "new CancellationTokenSource(timeout)", "per-operation timeout"),
            Source(1, "new CancellationTokenSource(timeout)", "per-operation timeout"),
            Source(2, "new CancellationTokenSource(timeout)", "timeout created by a factory method, per call"));

    [Fact]
    public Task A_run_loop_paced_through_a_local_or_a_conditional_delay_is_paced() =>
        VerifySource.VerifyAsync("""
            using System.Threading;
            using System.Threading.Tasks;

            class Prober
            {
                public Task Probe(CancellationToken ct) => Task.CompletedTask;
                public async Task Direct(CancellationToken ct) { while (!ct.IsCancellationRequested) { using var c = new CancellationTokenSource(500); await Probe(c.Token); await Task.Delay(2000, ct); } }
                public async Task ThroughLocal(CancellationToken ct) { while (!ct.IsCancellationRequested) { using var c = new CancellationTokenSource(500); await Probe(c.Token); var d = Task.Delay(2000, ct); await d; } }
                public async Task ThroughConditional(bool s, CancellationToken ct) { while (!ct.IsCancellationRequested) { using var c = new CancellationTokenSource(500); await Probe(c.Token); await (s ? Task.Delay(2000, ct) : Task.Delay(3000, ct)); } }

                // A delay kept in a local but awaited only sometimes does not pace every turn: the timeout stays per turn.
                public async Task SometimesAwaited(bool s, CancellationToken ct) { while (!ct.IsCancellationRequested) { using var c = {|#0:new CancellationTokenSource(500)|}; await Probe(c.Token); var d = Task.Delay(2000, ct); if (s) await d; } }
            }
            """,
            Source(0, "new CancellationTokenSource(timeout)", "inside a loop"));

    [Fact]
    public Task A_connect_timeout_whose_token_goes_through_a_local_or_whose_CancelAfter_is_conditional_is_set_up() =>
        VerifySource.VerifyAsync("""
            using System;
            using System.Net.WebSockets;
            using System.Threading;
            using System.Threading.Tasks;

            class Chan
            {
                private readonly ClientWebSocket _ws = new();
                private readonly Uri _uri = new("ws://x");
                public Task SendFrame(CancellationToken ct) => Task.CompletedTask;

                public async Task Inline() { using var cts = new CancellationTokenSource(5000); await _ws.ConnectAsync(_uri, cts.Token); }
                public async Task ThroughLocal() { using var cts = new CancellationTokenSource(5000); var token = cts.Token; await _ws.ConnectAsync(_uri, token); }
                public async Task Conditional(CancellationToken ct) { using var cts = CancellationTokenSource.CreateLinkedTokenSource(ct); cts?.CancelAfter(5000); await _ws.ConnectAsync(_uri, cts!.Token); }

                // The token local also bounds a send: not set-up alone.
                public async Task RoundTrip() { using var cts = {|#0:new CancellationTokenSource(5000)|}; var token = cts.Token; await _ws.ConnectAsync(_uri, token); await SendFrame(token); }
            }
            """,
            Source(0, "new CancellationTokenSource(timeout)", "per-operation timeout"));

    [Fact]
    public Task An_infinite_delay_kept_in_a_local_queues_no_timer() =>
        VerifyDelay.VerifyAsync("""
            using System;
            using System.Threading;
            using System.Threading.Tasks;

            class Wait
            {
                public async Task Inline(Task w) => await Task.WhenAny(w, Task.Delay(Timeout.InfiniteTimeSpan));
                public async Task Local(Task w) { var forever = Timeout.InfiniteTimeSpan; await Task.WhenAny(w, Task.Delay(forever)); }

                // Reassigned: no longer known to be infinite.
                public async Task Reassigned(Task w, TimeSpan t) { var wait = Timeout.InfiniteTimeSpan; if (t > TimeSpan.Zero) wait = t; await Task.WhenAny(w, {|#0:Task.Delay(wait)|}); }
            }
            """,
            Delay(0, "per-operation timeout"));

    [Fact]
    public Task A_spin_with_an_infinite_timeout_has_no_timeout_and_a_converted_configured_timeout_is_configured() =>
        VerifySpin.VerifyAsync("""
            using System;
            using System.Threading;

            class Spin
            {
                private volatile bool _ready;
                private int _timeoutMs = 50;

                public bool InfiniteInt() => SpinWait.SpinUntil(() => _ready, Timeout.Infinite);
                public bool InfiniteTimeSpan() => SpinWait.SpinUntil(() => _ready, Timeout.InfiniteTimeSpan);
                public bool Field() => {|#0:SpinWait.SpinUntil(() => _ready, _timeoutMs)|};
                public bool FieldConverted() => {|#1:SpinWait.SpinUntil(() => _ready, TimeSpan.FromMilliseconds(_timeoutMs))|};
                public bool ParameterConverted(int seconds) => {|#2:SpinWait.SpinUntil(() => _ready, TimeSpan.FromSeconds(seconds))|};
            }
            """,
            Spin(0, "configured timeout"), Spin(1, "configured timeout"), Spin(2, "configured timeout"));

    [Fact]
    public Task A_per_operation_object_declared_as_a_record_or_made_by_an_awaited_factory_with_ConfigureAwait_is_per_operation() =>
        VerifyTimer.VerifyAsync("""
            using System;
            using System.Threading;
            using System.Threading.Tasks;

            class LockClass : IDisposable
            {
                private readonly Timer _keepAlive;
                public LockClass(string r) { _keepAlive = {|#0:new Timer(_ => { }, null, 1000, 1000)|}; }
                public void Dispose() => _keepAlive.Dispose();
            }

            record LockRecord : IDisposable
            {
                private readonly Timer _keepAlive;
                public LockRecord(string r) { _keepAlive = {|#1:new Timer(_ => { }, null, 1000, 1000)|}; }
                public void Dispose() => _keepAlive.Dispose();
            }

            class LockMade : IDisposable
            {
                private readonly Timer _keepAlive;
                public LockMade(string r) { _keepAlive = {|#2:new Timer(_ => { }, null, 1000, 1000)|}; }
                public void Dispose() => _keepAlive.Dispose();
            }

            class Factory
            {
                public async Task<LockMade> CreateAsync(string r) { await Task.Yield(); return new LockMade(r); }
            }

            class Handler
            {
                private readonly Factory _factory = new();

                public async Task HandleAsync(string r)
                {
                    using var a = new LockClass(r);
                    using var b = new LockRecord(r);
                    using var c = await _factory.CreateAsync(r).ConfigureAwait(false);
                }
            }
            """,
            Timer(0, "held by an object created per call of HandleAsync"),
            Timer(1, "held by an object created per call of HandleAsync"),
            Timer(2, "held by an object created per call of HandleAsync"));
}
