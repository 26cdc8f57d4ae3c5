using System.Threading.Tasks;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.Testing;
using Xunit;
using Verify = CoarseTimers.Analyzers.Tests.Infrastructure.AnalyzerVerifier<CoarseTimers.Analyzers.Rules.ThreadingTimerAnalyzer>;

namespace CoarseTimers.Analyzers.Tests.Rules;

public partial class ThreadingTimerTests
{
    private static DiagnosticResult Expected(string reason) =>
        new DiagnosticResult(DiagnosticIds.ThreadingTimer, DiagnosticSeverity.Warning).WithLocation(0).WithArguments(reason);

    [Theory]
    [InlineData("for (var i = 0; i < 3; i++) { using var t = {|#0:new Timer(_ => { }, null, 100, -1)|}; }")]
    [InlineData("foreach (var x in new[] { 1 }) { using var t = {|#0:new Timer(_ => { })|}; }")]
    [InlineData("for (;;) { using Timer t = {|#0:new(_ => { }, null, TimeSpan.FromMilliseconds(100), Timeout.InfiniteTimeSpan)|}; }")]
    [InlineData("for (;;) { using var t = {|#0:new Timer(_ => { }, null, 100L, -1L)|}; }")]
    [InlineData("for (;;) { using var t = {|#0:new Timer(_ => { }, null, 100u, uint.MaxValue)|}; }")]
    public Task Every_constructor_in_a_loop_is_flagged(string body) =>
        Verify.VerifyAsync(Wrap(body), Expected("inside a loop"));

    [Theory]
    [InlineData("using var t = {|#0:new Timer(_ => { }, null, 100, -1)|};")]
    [InlineData("var t = {|#0:new Timer(_ => { }, null, TimeSpan.FromSeconds(5), Timeout.InfiniteTimeSpan)|}; try { } finally { t?.Dispose(); }")]
    [InlineData("Timer t = null; t = {|#0:new Timer(_ => { }, null, 100, Timeout.Infinite)|}; t.Dispose();")]
    [InlineData("using var t = {|#0:new Timer(_ => { }, null, 100, 0)|};")]
    [InlineData("using var t = {|#0:new Timer(_ => { }, null, TimeSpan.FromSeconds(5), TimeSpan.Zero)|};")]
    [InlineData("using ({|#0:new Timer(_ => { }, null, _field.GetHashCode(), _field.GetHashCode())|}) { }")]
    public Task One_shot_timer_disposed_by_its_creator_is_a_timeout(string body) =>
        Verify.VerifyAsync(Wrap(body), Expected("timeout timer disposed by the code that created it"));

    [Fact]
    public Task A_one_shot_timer_whose_callback_fails_a_pending_task_is_a_timeout_however_it_is_disposed() =>
        Verify.VerifyAsync("""
            using System;
            using System.Threading;
            using System.Threading.Tasks;

            class Publisher
            {
                private readonly TimeSpan _timeout = TimeSpan.FromSeconds(5);

                public Task<ulong> PublishAsync()
                {
                    var ack = new TaskCompletionSource<ulong>();
                    Timer timer = null;
                    timer = {|#0:new Timer(_ => { ack.TrySetException(new TimeoutException()); timer?.Dispose(); }, null, _timeout, new TimeSpan(-1))|};
                    return ack.Task;
                }

                public Task<T> WithTimeout<T>(Task<T> work, int milliseconds)
                {
                    var proxy = new TaskCompletionSource<T>();
                    var timer = {|#1:new Timer(state => ((TaskCompletionSource<T>)state!).TrySetCanceled(), proxy, milliseconds, Timeout.Infinite)|};
                    work.ContinueWith((done, state) => ((Tuple<Timer, TaskCompletionSource<T>>)state!).Item1.Dispose(), Tuple.Create(timer, proxy));
                    return proxy.Task;
                }

                // Lifecycle names still decide: a connect's timeout is set-up.
                public Task ConnectAsync()
                {
                    var connected = new TaskCompletionSource<bool>();
                    Timer timer = null;
                    timer = new Timer(_ => { connected.TrySetException(new TimeoutException()); timer?.Dispose(); }, null, _timeout, Timeout.InfiniteTimeSpan);
                    return connected.Task;
                }

                // A deferred action that disposes itself is expected to fire: not a timeout.
                public void DisposeLater(IDisposable channel)
                {
                    Timer timer = null;
                    timer = new Timer(_ => { channel.Dispose(); timer?.Dispose(); }, null, _timeout, Timeout.InfiniteTimeSpan);
                }

                // A ticker that fails a task each period is periodic: pacing.
                public void Watch(TaskCompletionSource<bool> stale) =>
                    _ = new Timer(_ => stale.TrySetException(new TimeoutException()), null, 1000, 1000);
            }
            """,
            Expected("timeout timer that fails a pending task"),
            new DiagnosticResult(DiagnosticIds.ThreadingTimer, DiagnosticSeverity.Warning).WithLocation(1).WithArguments("timeout timer that fails a pending task"));

    [Fact]
    public Task Timer_factory_method_returns_a_timeout_per_call() =>
        Verify.VerifyAsync("""
            using System;
            using System.Threading;

            static class Timers
            {
                public static Timer Create(TimerCallback callback, TimeSpan dueTime, TimeSpan period) => {|#0:new Timer(callback, null, dueTime, period)|};
                public static IDisposable Wrapped(TimerCallback callback, int dueTime) { return new Holder({|#1:new Timer(callback, null, dueTime, 0)|}); }
                public static Timer Disarmed(TimerCallback callback) => {|#2:new Timer(callback)|};
                public static Timer Periodic(TimerCallback callback) => new Timer(callback, null, 1000, 1000);
                sealed class Holder(IDisposable inner) : IDisposable { public void Dispose() => inner.Dispose(); }
            }
            """,
            Expected("timeout created by a factory method, per call"),
            new DiagnosticResult(DiagnosticIds.ThreadingTimer, DiagnosticSeverity.Warning).WithLocation(1).WithArguments("timeout created by a factory method, per call"),
            new DiagnosticResult(DiagnosticIds.ThreadingTimer, DiagnosticSeverity.Warning).WithLocation(2).WithArguments("timeout created by a factory method, per call"));

    [Fact]
    public Task A_one_shot_timer_its_callback_looks_up_and_re_arms_is_a_pacer_not_a_timeout() =>
        Verify.VerifyAsync("""
            using System;
            using System.Collections.Concurrent;
            using System.Threading;

            sealed class ServiceUpdater
            {
                private readonly ConcurrentDictionary<string, Timer> _timers = new();
                private Timer _poller;
                private Timer _watchdog;

                public void ScheduleUpdateIfAbsent(string key) => _timers.TryAdd(key, UpdateTask(key));

                // Runs, then re-arms itself for the next round: one poller per key, never cancelled before it fires.
                private Timer UpdateTask(string key) => new Timer(state =>
                {
                    _timers.TryGetValue(key, out var self);
                    self?.Change(1000, Timeout.Infinite);
                }, null, 1000, Timeout.Infinite);

                public void StartPolling(int taskId) => _poller = new Timer(state =>
                {
                    if (_timers.TryGetValue(taskId.ToString(), out var t)) t.Change(1, Timeout.Infinite);
                }, taskId, 0, Timeout.Infinite);

                // A callback that stops a timer it looked up, or re-arms another one it was not created as, proves nothing.
                public Timer Deadline(string key) => {|#0:new Timer(state =>
                {
                    if (_timers.TryGetValue(key, out var other)) other.Change(Timeout.Infinite, Timeout.Infinite);
                    _watchdog.Change(10, Timeout.Infinite);
                }, null, 5000, Timeout.Infinite)|};
            }
            """,
            Expected("timeout created by a factory method, per call"));

    [Fact]
    public Task Timer_factory_whose_callers_all_ask_for_a_ticker_makes_tickers() =>
        Verify.VerifyAsync("""
            using System;
            using System.Threading;

            static class Timers
            {
                // Every caller passes a period that repeats: the interval twice (the ticker idiom) or a positive constant.
                public static Timer CreateTicker(TimerCallback callback, TimeSpan dueTime, TimeSpan period) => new Timer(callback, null, dueTime, period);

                // One caller asks for a one-shot timer: a timeout per call.
                public static Timer CreateMixed(TimerCallback callback, TimeSpan dueTime, TimeSpan period) => {|#0:new Timer(callback, null, dueTime, period)|};

                // Never called in the compilation: nothing says it makes tickers.
                public static Timer CreateUnused(TimerCallback callback, TimeSpan dueTime, TimeSpan period) => {|#1:new Timer(callback, null, dueTime, period)|};
            }

            sealed class Reporter
            {
                readonly Timer _report;
                readonly Timer _flush;
                readonly Timer _deadline;

                Reporter(TimeSpan interval, TimeSpan timeout)
                {
                    _report = Timers.CreateTicker(_ => { }, interval, interval);
                    _flush = Timers.CreateTicker(_ => { }, TimeSpan.Zero, TimeSpan.FromSeconds(1));
                    _deadline = Timers.CreateMixed(_ => { }, interval, interval);
                    _deadline = Timers.CreateMixed(_ => { }, timeout, Timeout.InfiniteTimeSpan);
                }
            }
            """,
            Expected("timeout created by a factory method, per call"),
            new DiagnosticResult(DiagnosticIds.ThreadingTimer, DiagnosticSeverity.Warning).WithLocation(1).WithArguments("timeout created by a factory method, per call"));

    [Fact]
    public Task A_watchdog_repeating_at_its_threshold_is_still_a_timeout() =>
        Verify.VerifyAsync(Wrap("using ({|#0:new Timer(_ => { }, null, threshold, threshold)|}) { }").Replace("void M()", "void M(TimeSpan threshold)"),
            Expected("timeout timer disposed by the code that created it"));

    [Fact]
    public Task Timer_factory_wrapping_in_an_unresolved_type_still_returns_a_timeout_per_call()
    {
        var test = new Verify
        {
            TestCode = """
                using System.Threading;

                class Platform
                {
                    public ITimer CreateTimer(TimerCallback callback, int dueTime) => new MissingTimer({|#0:new Timer(callback, null, dueTime, Timeout.Infinite)|});
                }
                """,
        };
        test.ExpectedDiagnostics.Add(Expected("timeout created by a factory method, per call"));
        test.CompilerDiagnostics = CompilerDiagnostics.None;
        return test.RunAsync();
    }

    [Theory]
    [InlineData("using var t = new Timer(_ => { }, null, 100, 100);")]
    [InlineData("using (new Timer(_ => { }, null, 100, 100)) { }")]
    [InlineData("Timer t = null; t = new Timer(_ => t.Dispose(), null, 100, -1);")]
    [InlineData("var t = new Timer(_ => { }, null, 100, -1); _field = t;")]
    [InlineData("_field = new Timer(_ => { }, null, 100, 100);")]
    [InlineData("_field = new Timer(_ => { }, null, 100, -1); _field.Change(100, -1);")]
    [InlineData("_field = new Timer(_ => { }, null, 100, -1); this._field?.Change(100, -1);")]
    [InlineData("_field = new Timer(_ => { }, null, 100, -1); _ = _field!.Change(100, -1);")]
    [InlineData("_field = new Timer(_ => { }, null, 100, -1); (_field).Change(100, -1);")]
    [InlineData("var field = _field; if (field is null) _field = new Timer(_ => { }, null, 100, -1); else field.Change(100, -1);")]
    [InlineData("s_static = new Timer(_ => { }, null, 100, -1);")]
    [InlineData("using (var s = new System.IO.MemoryStream()) { var t = new Timer(_ => { }, null, 100, -1); _field = t; }")]
    [InlineData("for (;;) { using var t = new Timer(_ => { }, null, TimeSpan.FromMinutes(1), TimeSpan.FromMinutes(1)); }")]
    [InlineData("Func<Timer> make = () => new Timer(_ => { }); for (;;) { make().Dispose(); }")]
    public Task Cold_sites_and_paced_loops_are_not_flagged(string body) =>
        Verify.VerifyAsync(Wrap(body));

    [Theory]
    [InlineData("_field = {|#0:new Timer(_ => { }, null, 100, -1)|};")]
    [InlineData("_field = {|#0:new Timer(_ => { }, null, TimeSpan.FromSeconds(30), Timeout.InfiniteTimeSpan)|};")]
    public Task A_one_shot_timer_held_by_its_object_and_never_re_armed_is_a_timeout_per_instance(string body) =>
        Verify.VerifyAsync(Wrap(body), Expected("timeout held by its object, one per instance"));

    [Fact]
    public Task A_per_instance_timeout_in_a_constructor_is_flagged_and_one_in_a_lifecycle_member_is_not() =>
        Verify.VerifyAsync("""
            using System;
            using System.Threading;

            sealed class RequestHandle : IDisposable
            {
                private readonly Timer _timeout;
                public RequestHandle(TimeSpan timeToLive) => _timeout = {|#0:new Timer(_ => { }, null, timeToLive, Timeout.InfiniteTimeSpan)|};
                public void Dispose() => _timeout.Dispose();
            }

            sealed class Server
            {
                private Timer _startupDeadline;
                void StartAsync() => _startupDeadline = new Timer(_ => { }, null, 30_000, Timeout.Infinite);
            }
            """, Expected("timeout held by its object, one per instance"));

    [Fact]
    public Task A_one_shot_timer_armed_beside_a_ticker_in_a_constructor_is_a_delayed_start() =>
        Verify.VerifyAsync("""
            using System;
            using System.Threading;

            sealed class FailoverReactor
            {
                private readonly Timer _switchRefresher;
                private readonly Timer _backupOnce;

                public FailoverReactor()
                {
                    _switchRefresher = new Timer(_ => { }, null, 0, 5000);
                    _backupOnce = new Timer(_ => { }, null, TimeSpan.FromSeconds(10), Timeout.InfiniteTimeSpan);
                }
            }

            sealed class PendingRequest
            {
                private readonly Timer _timeout;

                // No ticker here: the object is a request, and its one-shot timer its deadline.
                public PendingRequest(TimeSpan timeout) => _timeout = {|#0:new Timer(_ => { }, null, timeout, Timeout.InfiniteTimeSpan)|};
            }
            """,
            Expected("timeout held by its object, one per instance"));

    [Fact]
    public Task Any_timer_of_an_object_its_creators_scope_to_one_operation_is_per_operation() =>
        Verify.VerifyAsync("""
            using System;
            using System.Threading;

            // A keep-alive per acquired lock, ticking every minute on a lock usually held for milliseconds.
            sealed class DistributedLock : IDisposable
            {
                private readonly Timer _keepAlive;
                public DistributedLock(string resource) : this(resource, TimeSpan.FromMinutes(1)) { }
                public DistributedLock(string resource, TimeSpan interval) => _keepAlive = {|#0:new Timer(_ => { }, null, interval, interval)|};
                public void Dispose() => _keepAlive.Dispose();
            }

            // A heartbeat per execution, made by a factory whose every caller disposes it when the execution ends.
            sealed class Heartbeat : IDisposable
            {
                private readonly Timer _timer;
                public Heartbeat(TimeSpan interval) => _timer = {|#1:new Timer(_ => { }, null, interval, interval)|};
                public void Dispose() => _timer.Dispose();
            }

            sealed class Handler
            {
                public void Handle(string resource) { using var l = new DistributedLock(resource); }
                public void HandleWithInterval(string resource) { using (new DistributedLock(resource, TimeSpan.FromSeconds(30))) { } }
                public Heartbeat CreateHeartbeat() => new Heartbeat(TimeSpan.FromSeconds(30));
                public void Execute() { using var heartbeat = CreateHeartbeat(); }
                public void ExecuteOther() { var heartbeat = CreateHeartbeat(); try { } finally { heartbeat.Dispose(); } }
            }
            """,
            Expected("held by an object created per call of Handle"),
            new DiagnosticResult(DiagnosticIds.ThreadingTimer, DiagnosticSeverity.Warning).WithLocation(1).WithArguments("held by an object created per call of Execute"));

    [Fact]
    public Task A_renewal_timer_of_a_lease_held_per_message_is_per_operation() =>
        Verify.VerifyAsync("""
            using System;
            using System.Threading;
            using System.Threading.Tasks;

            public sealed class WorkerOptions { public TimeSpan LeaseDuration { get; set; } = TimeSpan.FromSeconds(30); }

            // Renews one message's lease at half its duration while the message is handled; disposed when it is settled.
            internal sealed class LeaseRenewer : IAsyncDisposable
            {
                private readonly Timer _timer;

                public LeaseRenewer(string lease, TimeSpan duration)
                {
                    var period = duration / 2;
                    _timer = {|#0:new Timer(OnTick, null, period, period)|};
                }

                private void OnTick(object? state) { }

                public async ValueTask DisposeAsync() => await _timer.DisposeAsync();
            }

            public sealed class MessageProcessor
            {
                private readonly WorkerOptions _options = new();

                public async Task ProcessAsync(string lease)
                {
                    await using var renewer = new LeaseRenewer(lease, _options.LeaseDuration);
                    await Task.Yield();
                }
            }
            """,
            Expected("held by an object created per call of ProcessAsync"));

    [Fact]
    public Task A_timer_of_an_object_kept_by_its_creator_or_created_in_lifecycle_code_paces() =>
        Verify.VerifyAsync("""
            using System;
            using System.Collections.Generic;
            using System.Threading;

            // Kept in a field: a service, its timer ticks for the owner's life.
            sealed class Flusher : IDisposable
            {
                private readonly Timer _timer;
                public Flusher() => _timer = new Timer(_ => { }, null, 1000, 1000);
                public void Dispose() => _timer.Dispose();
            }

            // Returned by a builder whose caller keeps it.
            sealed class Agent : IDisposable
            {
                private readonly Timer _timer;
                public Agent(TimeSpan period) => _timer = new Timer(_ => { }, null, period, period);
                public void Dispose() => _timer.Dispose();
            }

            // Handed on to a pipe, not disposed by its creator.
            sealed class RateLimit
            {
                private readonly Timer _reset;
                public RateLimit(TimeSpan interval) => _reset = new Timer(_ => { }, null, interval, interval);
            }

            // Scoped, but in lifecycle code.
            sealed class Warmup : IDisposable
            {
                private readonly Timer _timer;
                public Warmup(TimeSpan interval) => _timer = new Timer(_ => { }, null, interval, interval);
                public void Dispose() => _timer.Dispose();
            }

            // No declared constructor: its creations are not listed.
            sealed class Ticker : IDisposable
            {
                private readonly Timer _timer = new Timer(_ => { }, null, 1000, 1000);
                public void Dispose() => _timer.Dispose();
            }

            // Returned to its caller; disposed only when subscribing fails.
            sealed class Subscription : IDisposable
            {
                private readonly Timer _heartbeat;
                public Subscription(TimeSpan every) => _heartbeat = new Timer(_ => { }, null, every, every);
                public void Dispose() => _heartbeat.Dispose();
            }

            sealed class Host
            {
                private readonly Flusher _flusher;
                private Agent _agent;
                private readonly List<RateLimit> _pipe = new();
                public Host() => _flusher = new Flusher();
                Agent BuildAgent(TimeSpan period) => new Agent(period);
                void Configure() { _agent = BuildAgent(TimeSpan.FromSeconds(5)); var limit = new RateLimit(TimeSpan.FromSeconds(1)); _pipe.Add(limit); }
                void StartAsync() { using var warmup = new Warmup(TimeSpan.FromSeconds(1)); }
                void Handle() { using var ticker = new Ticker(); }

                Subscription Subscribe(Action send)
                {
                    var subscription = new Subscription(TimeSpan.FromSeconds(30));
                    try
                    {
                        send();
                        return subscription;
                    }
                    catch
                    {
                        subscription.Dispose();
                        throw;
                    }
                }
            }
            """);

    [Fact]
    public Task Lifecycle_and_test_code_is_cold() =>
        Verify.VerifyAsync("""
            using System.Threading;

            class Server
            {
                void StopAsync() { using var t = new Timer(_ => { }, null, 100, -1); }
                void Dispose() { using var t = new Timer(_ => { }, null, 100, -1); }
            }

            class ServerTests
            {
                void Waits() { using var t = new Timer(_ => { }, null, 100, -1); }
            }
            """);

    [Fact]
    public Task Declared_hot_type_flags_per_connection_timers() =>
        Verify.VerifyAsync("""
            using System.Threading;

            [CoarseTimers.HotPath]
            sealed class Connection
            {
                private readonly Timer _keepAlive;
                public Connection() => _keepAlive = {|#0:new Timer(_ => { }, null, 60_000, 60_000)|};
            }
            """, Expected("declared hot path"));

    [Fact]
    public Task A_user_Timer_class_is_not_flagged() =>
        Verify.VerifyAsync("""
            class Timer { public Timer(System.Action a) { } }

            class C
            {
                void M() { for (;;) { _ = new Timer(() => { }); } }
            }
            """);

    private static string Wrap(string body) => $$"""
        using System;
        using System.Threading;

        class C
        {
            private Timer _field;
            private static Timer s_static;

            void M()
            {
                {{body}}
            }
        }
        """;
}
