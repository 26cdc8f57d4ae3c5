using System.Threading.Tasks;
using Xunit;
using Verify = CoarseTimers.Analyzers.Tests.Infrastructure.AnalyzerVerifier<CoarseTimers.Analyzers.Rules.TimeoutCancellationTokenSourceAnalyzer>;

namespace CoarseTimers.Analyzers.Tests.Rules;

/// <summary>Cold callers (docs/hot-paths.md): a member whose every call site in the compilation is cold is cold.</summary>
public partial class TimeoutCancellationTokenSourceTests
{
    [Fact]
    public Task A_timeout_per_item_of_an_await_foreach_is_hot_however_rarely_its_member_runs() =>
        Verify.VerifyAsync("""
            using System;
            using System.Collections.Generic;
            using System.Threading;
            using System.Threading.Tasks;

            class StreamWorker
            {
                // Run once per connection, from connection set-up: its callers are cold.
                public async Task ConnectAsync(IAsyncEnumerable<int> stream, TimeSpan idle)
                {
                    await ConsumeAsync(stream, idle);
                    await ConsumeDirectAsync(stream, idle);
                    await LoadAsync(new[] { 1, 2 }, stream, idle);
                }

                private async Task ConsumeAsync(IAsyncEnumerable<int> stream, TimeSpan idle)
                {
                    using var timeout = new CancellationTokenSource();
                    void ArmIdleTimer() => {|#0:timeout.CancelAfter(idle)|};
                    void ReportOnce() => timeout.CancelAfter(idle);

                    ArmIdleTimer();
                    ReportOnce();
                    await foreach (var item in stream)
                    {
                        ArmIdleTimer(); // re-armed per message
                        Action later = () => ReportOnce(); // through a lambda: may run any time
                    }
                }

                private async Task ConsumeDirectAsync(IAsyncEnumerable<int> stream, TimeSpan idle)
                {
                    await foreach (var item in stream)
                    {
                        using var perItem = {|#1:new CancellationTokenSource(idle)|};
                    }
                }

                // A plain foreach over a collection in rare code handles the items of one rare pass: still cold.
                private async Task LoadAsync(int[] items, IAsyncEnumerable<int> stream, TimeSpan idle)
                {
                    foreach (var item in items)
                    {
                        using var perItem = new CancellationTokenSource(idle);
                    }

                    await Task.Yield();
                }
            }
            """,
            Expected("CancelAfter", "per item of an await foreach", 0),
            Expected("new CancellationTokenSource(timeout)", "per item of an await foreach", 1));

    // A static field's or property's initializer runs in the type initializer, once per process, as a static constructor
    // does; so does work it starts with Task.Run, TaskFactory.StartNew or a Lazy<T> (a platform probe, a region look-up).
    [Fact]
    public Task A_member_run_only_by_a_type_initializer_is_cold_but_one_behind_a_stored_delegate_or_an_instance_initializer_is_not() =>
        Verify.VerifyAsync("""
            using System;
            using System.Threading;
            using System.Threading.Tasks;

            static class PlatformDetection
            {
                private static readonly Task<string[]> s_detection = Task.Run(RunDetectionAsync);
                private static readonly Lazy<string> s_region = new Lazy<string>(() => DiscoverRegion());
                private static readonly string s_zone = ReadZone();
                private static readonly Task s_warm;
                private static readonly Func<Task> s_fetch = FetchAsync;

                static PlatformDetection() => s_warm = Task.Factory.StartNew(() => WarmUp());

                public static string[] Platforms => s_detection.GetAwaiter().GetResult();
                public static Task Fetch() => s_fetch();

                private static async Task<string[]> RunDetectionAsync()
                {
                    var ec2 = await DetectEc2Async();
                    return new[] { ec2 };
                }

                private static async Task<string> DetectEc2Async()
                {
                    using var cts = new CancellationTokenSource(200);
                    await Task.Delay(1, cts.Token);
                    return "ec2";
                }

                private static string DiscoverRegion()
                {
                    using var cts = new CancellationTokenSource(200);
                    return "region";
                }

                private static string ReadZone()
                {
                    using var cts = new CancellationTokenSource(200);
                    return "zone";
                }

                private static void WarmUp()
                {
                    using var cts = new CancellationTokenSource(200);
                }

                // Stored, not run: the delegate is called whenever Fetch is, per operation.
                private static async Task FetchAsync()
                {
                    using var cts = {|#0:new CancellationTokenSource(200)|};
                    await Task.Delay(1, cts.Token);
                }
            }

            class Session
            {
                // Once per instance, and a session may be created per operation.
                private readonly Task _handshake = Task.Run(HandshakeStepAsync);
                private readonly Lazy<int> _settings = new Lazy<int>(() => ComputeLimit());

                private static async Task HandshakeStepAsync()
                {
                    using var cts = {|#1:new CancellationTokenSource(200)|};
                    await Task.Delay(1, cts.Token);
                }

                private static int ComputeLimit()
                {
                    using var cts = {|#2:new CancellationTokenSource(200)|};
                    return 1;
                }
            }
            """,
            Expected("new CancellationTokenSource(timeout)", "per-operation timeout", 0),
            Expected("new CancellationTokenSource(timeout)", "per-operation timeout", 1),
            Expected("new CancellationTokenSource(timeout)", "per-operation timeout", 2));

    [Fact]
    public Task A_member_called_only_from_lifecycle_code_is_cold() =>
        Verify.VerifyAsync("""
            using System.Threading;
            using System.Threading.Tasks;

            class Queue
            {
                public async Task PurgeAsync() => await Task.Run(() => PurgeSessions());
                public void StopAsync() { Drain(); }
                private void Drain() => Probe();
                private void Probe() { using var cts = new CancellationTokenSource(2000); }
                private void PurgeSessions() { using var cts = new CancellationTokenSource(); cts.CancelAfter(2000); }
                static Queue() => new Queue().Helper();
                private void Helper() { using var cts = new CancellationTokenSource(2000); }
            }

            sealed class Pending
            {
                private readonly CancellationTokenSource _cts;
                public Pending(int timeout) => _cts = new CancellationTokenSource(timeout);
            }

            class Channel
            {
                public void DisposeAsync() { Pending p = new(5); _ = new Pending(10); }
            }
            """);

    [Fact]
    public Task A_partial_method_is_judged_by_the_callers_of_its_defining_part() =>
        Verify.VerifyAsync("""
            using System;
            using System.Threading;

            sealed partial class Store : IDisposable
            {
                // Found by a probe: the body is the implementing part, a symbol of its own, while calls bind to the
                // defining part, so its only caller, Dispose, was not seen.
                public void Dispose() => Flush();
                partial void Flush();
                partial void Flush() { using var cts = new CancellationTokenSource(5000); }

                public void Handle() => Send(1);
                private partial void Send(int id);
                private partial void Send(int id) { using var cts = {|#0:new CancellationTokenSource(5000)|}; }
            }
            """,
            Expected("new CancellationTokenSource(timeout)", "per-operation timeout", 0));

    [Fact]
    public Task A_member_with_one_hot_caller_unseen_callers_or_calls_in_a_loop_stays_hot() =>
        Verify.VerifyAsync("""
            using System;
            using System.Threading;

            class Client
            {
                public void Start() => Send();
                public void Handle() => Send();
                private void Send() { using var cts = {|#0:new CancellationTokenSource(2000)|}; }

                public void Connect() { Action callback = Ack; callback(); }
                private void Ack() { using var cts = {|#1:new CancellationTokenSource(2000)|}; }

                public void Initialize() => ReceiveLoop();
                private void ReceiveLoop() { for (;;) { OnMessage(); } }
                private void OnMessage() { using var cts = {|#2:new CancellationTokenSource(2000)|}; }

                public virtual void Close() { }
                public void Shutdown() => Reply();
                public virtual void Reply() { using var cts = {|#3:new CancellationTokenSource(2000)|}; }

                private void Orphan() { using var cts = {|#4:new CancellationTokenSource(2000)|}; }
            }
            """,
            Expected("new CancellationTokenSource(timeout)", "per-operation timeout", 0),
            Expected("new CancellationTokenSource(timeout)", "per-operation timeout", 1),
            Expected("new CancellationTokenSource(timeout)", "per-operation timeout", 2),
            Expected("new CancellationTokenSource(timeout)", "per-operation timeout", 3),
            Expected("new CancellationTokenSource(timeout)", "per-operation timeout", 4));

    [Fact]
    public Task A_leading_connect_initialize_drain_or_purge_verb_and_a_last_offline_or_abort_name_lifecycle_but_a_leading_start_restart_or_abort_does_not() =>
        Verify.VerifyAsync("""
            using System.Threading;

            class Cluster
            {
                private CancellationTokenSource _timeout = new();

                void ConnectGrpcAsync() { using var cts = new CancellationTokenSource(5000); }
                void InitializeTransport() { using var cts = new CancellationTokenSource(5000); }
                void ShutdownWorkers() { using var cts = new CancellationTokenSource(5000); }
                void DrainTablePartition() { using var cts = new CancellationTokenSource(60000); }
                void PurgeInstanceState() { using var cts = new CancellationTokenSource(60000); }
                void CleanupResources() { using var cts = new CancellationTokenSource(5000); }
                void WhenOffline() { using var cts = new CancellationTokenSource(5000); }
                void GoOfflineAsync() { using var cts = new CancellationTokenSource(5000); }
                void ReadOfflineQueue() { using var cts = {|#2:new CancellationTokenSource(5000)|}; }
                void OnAbort() { using var cts = new CancellationTokenSource(1000); }
                void AbortingAsync() { using var cts = new CancellationTokenSource(1000); }
                void AbortTransaction() { using var cts = {|#3:new CancellationTokenSource(1000)|}; }
                void RestartTimeoutTimer() { {|#0:_timeout.CancelAfter(5000)|}; }
                void StartCall() { using var cts = {|#1:new CancellationTokenSource(5000)|}; }
            }
            """,
            Expected("CancelAfter", "reused source re-armed per call", 0),
            Expected("new CancellationTokenSource(timeout)", "per-operation timeout", 1),
            Expected("new CancellationTokenSource(timeout)", "per-operation timeout", 2),
            Expected("new CancellationTokenSource(timeout)", "per-operation timeout", 3));

    [Fact]
    public Task A_member_called_from_a_periodic_timer_and_from_the_constructor_that_starts_it_is_cold() =>
        Verify.VerifyAsync("""
            using System;
            using System.Net.Http;
            using System.Threading;
            using System.Threading.Tasks;

            sealed class ServerListManager
            {
                private static readonly HttpClient s_http = new();
                private readonly Timer _refresh;

                public ServerListManager()
                {
                    _refresh = new Timer(async _ => await RefreshAsync(), null, TimeSpan.Zero, TimeSpan.FromSeconds(10));
                    RefreshAsync().GetAwaiter().GetResult();
                }

                private async Task RefreshAsync() => await FetchServerListAsync();

                private async Task FetchServerListAsync()
                {
                    using var cts = new CancellationTokenSource();
                    cts.CancelAfter(5000);
                    await s_http.GetAsync("http://address-server/serverlist", cts.Token);
                }
            }

            sealed class Request
            {
                private static readonly HttpClient s_http = new();

                // A constructor with no ticker is followed to its own callers, and this one has none to follow.
                public Request() => SendAsync().GetAwaiter().GetResult();

                private async Task SendAsync()
                {
                    using var cts = new CancellationTokenSource();
                    {|#0:cts.CancelAfter(5000)|};
                    await s_http.GetAsync("http://service/api", cts.Token);
                }
            }
            """,
            Expected("CancelAfter", "per-operation timeout", 0));

    [Fact]
    public Task A_sign_in_named_as_the_last_word_is_session_set_up_but_a_login_lookup_is_not() =>
        Verify.VerifyAsync("""
            using System.Threading;

            class SecurityProxy
            {
                void LoginAsync() { using var cts = new CancellationTokenSource(5000); }
                void ReadLoginQueue() { using var cts = {|#0:new CancellationTokenSource(5000)|}; }
                void Relogin() { using var cts = new CancellationTokenSource(5000); }
                void LogonCore() { using var cts = new CancellationTokenSource(5000); }
                void SendLoginReply() { using var cts = {|#1:new CancellationTokenSource(5000)|}; }
            }
            """,
            Expected("new CancellationTokenSource(timeout)", "per-operation timeout", 0),
            Expected("new CancellationTokenSource(timeout)", "per-operation timeout", 1));

    [Fact]
    public Task A_member_called_in_a_loop_of_Main_is_per_iteration_but_once_from_Main_is_cold()
    {
        const string source = """
            using System.Threading;

            static class Program
            {
                static void Main()
                {
                    Warm();
                    for (var request = 0; request < 3; request++) { Handle(); }
                }

                static void Warm() { using var cts = new CancellationTokenSource(2000); }
                static void Handle() { using var cts = {|#0:new CancellationTokenSource(2000)|}; }
            }
            """;
        var test = new Verify { TestCode = source }.AsConsoleApplication();
        test.ExpectedDiagnostics.Add(Expected("new CancellationTokenSource(timeout)", "per-operation timeout"));
        return test.RunAsync();
    }

    [Fact]
    public Task Timeouts_once_per_period_of_a_paced_loop_or_a_periodic_timer_are_pacing() =>
        Verify.VerifyAsync("""
            using System;
            using System.Collections.Generic;
            using System.Threading;
            using System.Threading.Tasks;

            class Monitor
            {
                private readonly TimeSpan _interval = TimeSpan.FromSeconds(3);
                private readonly List<Monitor> _peers = new();
                private Timer _timer;
                private CancellationTokenSource _heartbeat = new();

                async Task ProbeLoop(CancellationToken token)
                {
                    while (!token.IsCancellationRequested)
                    {
                        foreach (var peer in _peers) { peer.Probe(); }
                        using var cts = new CancellationTokenSource(1000);
                        await Task.Delay(_interval, token).ConfigureAwait(false);
                    }
                }

                private bool _disposed;

                async Task HeartbeatLoop()
                {
                    while (!_disposed)
                    {
                        await Task.Delay(_interval).ConfigureAwait(false);
                        SendHeartbeat();
                    }
                }

                void SendHeartbeat() => _heartbeat.CancelAfter(5000);

                async Task TickLoop(PeriodicTimer timer)
                {
                    while (await timer.WaitForNextTickAsync()) { _heartbeat.CancelAfter(5000); }
                }

                void Probe() { using var cts = new CancellationTokenSource(1000); }

                void Schedule() => _timer = new Timer(Refresh, null, 0, 1000);
                void Refresh(object state) => Gossip();
                void Gossip() { using var cts = new CancellationTokenSource(1000); }
            }
            """);

    [Fact]
    public Task A_lambda_that_a_periodic_timer_calls_runs_once_per_period() =>
        Verify.VerifyAsync("""
            using System;
            using System.Threading;
            using System.Threading.Tasks;

            class ConnectionPool
            {
                private Timer _reaper;
                private Timer _retry;
                private Timer _oneShot;

                Task ReapAsync(CancellationToken token) => Task.CompletedTask;

                // A reaper ticking on its interval: one bound per tick.
                void StartReaper(TimeSpan reaperInterval) => _reaper = new Timer(_ =>
                {
                    using var source = new CancellationTokenSource(reaperInterval);
                    ReapAsync(source.Token).GetAwaiter().GetResult();
                }, null, reaperInterval, reaperInterval);

                void StartConstantReaper() => _reaper = new Timer(state => { using var source = new CancellationTokenSource(1000); }, null, 0, 5000);

                // Created disarmed, re-armed from its own callback after each run: a self-re-arming pacer.
                void StartSelfArmingReaper(TimeSpan reaperInterval)
                {
                    _reaper = new Timer(t =>
                    {
                        using var source = new CancellationTokenSource(reaperInterval);
                        ((Timer)t!).Change(reaperInterval, Timeout.InfiniteTimeSpan);
                    });
                    _reaper.Change(reaperInterval, Timeout.InfiniteTimeSpan);
                }

                // One-shot timers (period infinite or 0): their callbacks are judged as any other lambda.
                void Retry(TimeSpan delay, TimeSpan timeout) => _retry = new Timer(_ =>
                {
                    using var source = {|#0:new CancellationTokenSource(timeout)|};
                }, null, delay, Timeout.InfiniteTimeSpan);

                void Once(TimeSpan timeout) => _oneShot = new Timer(_ => { using var source = {|#1:new CancellationTokenSource(timeout)|}; }, null, 100, 0);

                // Re-arming another timer (an idle watchdog) does not make a one-shot timer a pacer.
                private readonly Timer _idle = new Timer(_ => { }, null, Timeout.Infinite, Timeout.Infinite);

                void Slow(TimeSpan timeout) => _oneShot = new Timer(_ =>
                {
                    using var source = {|#3:new CancellationTokenSource(timeout)|};
                    _idle.Change(30000, Timeout.Infinite);
                }, null, 5000, Timeout.Infinite);

                // A callback that disarms its timer does not re-arm it.
                void Disarming(TimeSpan timeout) => _oneShot = new Timer(t =>
                {
                    using var source = {|#2:new CancellationTokenSource(timeout)|};
                    ((Timer)t!).Change(Timeout.Infinite, Timeout.Infinite);
                });
            }
            """,
            Expected("new CancellationTokenSource(timeout)", "per-operation timeout", 0),
            Expected("new CancellationTokenSource(timeout)", "per-operation timeout", 1),
            Expected("new CancellationTokenSource(timeout)", "per-operation timeout", 2),
            Expected("new CancellationTokenSource(timeout)", "per-operation timeout", 3));

    [Fact]
    public Task A_loop_that_awaits_a_timer_object_is_paced_and_one_that_awaits_a_read_is_not() =>
        Verify.VerifyAsync("""
            using System;
            using System.Threading;
            using System.Threading.Channels;
            using System.Threading.Tasks;

            // SignalR's TimerAwaitable shape: awaiting the timer waits for its next tick.
            sealed class TimerAwaitable : System.Runtime.CompilerServices.INotifyCompletion
            {
                public TimerAwaitable GetAwaiter() => this;
                public bool IsCompleted => false;
                public bool GetResult() => true;
                public void OnCompleted(Action continuation) { }
            }

            class Connection
            {
                async Task SyncLoop(TimerAwaitable timer)
                {
                    while (await timer)
                    {
                        await SendKeyAsync();
                    }
                }

                async Task SendKeyAsync()
                {
                    using var source = new CancellationTokenSource(TimeSpan.FromSeconds(30));
                    await Task.Yield();
                }

                async Task ReadLoop(ChannelReader<int> reader)
                {
                    while (await reader.WaitToReadAsync())
                    {
                        using var perMessage = {|#0:new CancellationTokenSource(TimeSpan.FromSeconds(30))|};
                    }
                }
            }
            """,
            Expected("new CancellationTokenSource(timeout)", "per-operation timeout", 0));

    [Fact]
    public Task A_loop_that_waits_in_both_branches_of_an_if_is_paced_and_one_that_waits_in_one_branch_is_not() =>
        Verify.VerifyAsync("""
            using System;
            using System.Threading;
            using System.Threading.Tasks;

            class PartitionManager
            {
                private readonly TimeSpan _interval = TimeSpan.FromSeconds(10);
                private readonly TimeSpan _operationTimeout = TimeSpan.FromSeconds(2);

                async Task ManagerLoop(CancellationToken graceful, CancellationToken forceful)
                {
                    while (true)
                    {
                        var sleep = _interval;
                        try
                        {
                            using var cts = new CancellationTokenSource(_operationTimeout);
                            await Work(cts.Token);
                        }
                        catch (OperationCanceledException) { sleep = TimeSpan.Zero; }

                        if (graceful.IsCancellationRequested) { await Task.Delay(sleep, forceful); }
                        else await Task.Delay(sleep, graceful);
                    }
                }

                async Task ReceiveLoop(CancellationToken token)
                {
                    while (true)
                    {
                        using var cts = {|#0:new CancellationTokenSource(_operationTimeout)|};
                        await Work(cts.Token);
                        if (token.IsCancellationRequested) { await Task.Delay(_interval); }
                        else { Work(token).Wait(); }
                    }
                }

                static Task Work(CancellationToken token) => Task.CompletedTask;
            }
            """,
            Expected("new CancellationTokenSource(timeout)", "inside a loop", 0));

    [Fact]
    public Task A_loop_that_waits_only_when_idle_or_polls_briefly_is_not_paced() =>
        Verify.VerifyAsync("""
            using System;
            using System.Threading;
            using System.Threading.Tasks;

            class Pump
            {
                private readonly TimeSpan _idle = TimeSpan.FromSeconds(1);
                private Timer _timer;

                async Task ReceiveLoop(CancellationToken token)
                {
                    while (!token.IsCancellationRequested)
                    {
                        if (!Receive()) { await Task.Delay(_idle, token); continue; }
                        using var cts = {|#0:new CancellationTokenSource(1000)|};
                    }
                }

                void Arm() => _timer = new Timer(OnDue, null, 1000, Timeout.Infinite);
                void OnDue(object state) { using var cts = {|#1:new CancellationTokenSource(1000)|}; }

                static bool Receive() => true;
            }
            """,
            Expected("new CancellationTokenSource(timeout)", "per-operation timeout", 0),
            Expected("new CancellationTokenSource(timeout)", "per-operation timeout", 1));

    [Fact]
    public Task Cancellation_callbacks_and_lifecycle_contexts_are_cold_and_a_foreach_in_a_cold_caller_goes_on() =>
        Verify.VerifyAsync("""
            using System.Collections.Generic;
            using System.Threading;

            sealed class StopContext { }

            class Agent
            {
                private readonly CancellationTokenSource _source = new();
                private readonly List<Agent> _peers = new();

                public Agent(CancellationToken stopping)
                {
                    stopping.Register(OnStopping);
                    stopping.Register(() => _source.CancelAfter(1000));
                }

                void OnStopping() => _source.CancelAfter(1000);

                void Completed(StopContext context) { using var cts = new CancellationTokenSource(1000); }

                public void Shutdown() { foreach (var peer in _peers) { peer.Release(); } }
                void Release() { using var cts = new CancellationTokenSource(1000); }
            }
            """);

    [Fact]
    public Task Ordinary_contexts_and_other_callbacks_stay_hot() =>
        Verify.VerifyAsync("""
            using System;
            using System.Threading;

            sealed class RequestContext { }
            sealed class ConnectionContext { }

            class Handler
            {
                private readonly CancellationTokenSource _source = new();

                void Handle(RequestContext context) { using var cts = {|#0:new CancellationTokenSource(1000)|}; }
                void Read(ConnectionContext context) { using var cts = {|#1:new CancellationTokenSource(1000)|}; }
                void Subscribe(Action<Action> register) => register(() => {|#2:_source.CancelAfter(1000)|});
            }
            """,
            Expected("new CancellationTokenSource(timeout)", "per-operation timeout", 0),
            Expected("new CancellationTokenSource(timeout)", "per-operation timeout", 1),
            Expected("CancelAfter", "reused source re-armed per call", 2));
}
