using System.Threading.Tasks;
using CoarseTimers.Analyzers.Rules;
using CoarseTimers.Analyzers.Tests.CodeFixes;
using CoarseTimers.CodeFixes.Fixes;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.Testing;
using Xunit;
using CtsVerify = CoarseTimers.Analyzers.Tests.Infrastructure.AnalyzerVerifier<CoarseTimers.Analyzers.Rules.TimeoutCancellationTokenSourceAnalyzer>;
using DelayVerify = CoarseTimers.Analyzers.Tests.Infrastructure.AnalyzerVerifier<CoarseTimers.Analyzers.Rules.TaskDelayAnalyzer>;
using TimerVerify = CoarseTimers.Analyzers.Tests.Infrastructure.AnalyzerVerifier<CoarseTimers.Analyzers.Rules.ThreadingTimerAnalyzer>;

namespace CoarseTimers.Analyzers.Tests.Analyzers;

/// <summary>
/// A timeout whose type comes from a reference the compilation lacks (an options type in another assembly): overload
/// resolution fails between the <c>int</c> and <c>TimeSpan</c> overloads, and the call is judged as the bound one would be.
/// No fix is offered on code that does not compile.
/// </summary>
public class UnresolvedReferenceTests
{
    [Fact]
    public Task Timeout_sources_with_an_unresolved_timeout_are_judged_as_bound_ones() =>
        CtsVerify.VerifyAsync("""
            using System.Threading;
            using System.Threading.Tasks;

            class Outbox
            {
                readonly {|CS0246:DeliveryOptions|} _options;

                async Task Deliver(CancellationTokenSource reused)
                {
                    using var query = {|#0:new CancellationTokenSource(_options.QueryTimeout)|};
                    {|#1:reused.CancelAfter(_options.SendTimeout)|};
                    await Task.Yield();
                }

                // Cold evidence still applies: a lifecycle member, a lifecycle timeout name, an infinite timeout.
                async Task StopAsync()
                {
                    using var stop = new CancellationTokenSource(_options.QueryTimeout);
                    await Task.Yield();
                }

                void Send(CancellationTokenSource cts)
                {
                    using var connect = new CancellationTokenSource(_options.ConnectTimeout);
                    cts.CancelAfter(Timeout.Infinite);
                }
            }
            """,
            ExpectedSource("new CancellationTokenSource(timeout)", "per-operation timeout", 0),
            ExpectedSource("CancelAfter", "reused source re-armed per call", 1));

    [Fact]
    public Task A_configuration_provider_is_recognised_with_its_package_unresolved() =>
        CtsVerify.VerifyAsync("""
            using System;
            using System.Threading;
            using System.Threading.Tasks;

            class StoreConfigurationProvider : {|CS0246:ConfigurationProvider|}
            {
                async Task LoadAsync(TimeSpan sidecarWait)
                {
                    using var cts = new CancellationTokenSource(sidecarWait);
                    await Task.Delay(1, cts.Token);
                }
            }

            class StoreConfigurationSource : {|CS0246:IConfigurationSource|}
            {
                async Task WaitAsync(TimeSpan sidecarWait)
                {
                    using var cts = new CancellationTokenSource(sidecarWait);
                    await Task.Delay(1, cts.Token);
                }
            }

            class Store : {|CS0246:StoreBase|}
            {
                async Task GetAsync(TimeSpan timeout)
                {
                    using var cts = {|#0:new CancellationTokenSource(timeout)|};
                    await Task.Delay(1, cts.Token);
                }
            }
            """,
            ExpectedSource("new CancellationTokenSource(timeout)", "per-operation timeout", 0));

    [Fact]
    public Task A_call_that_does_not_bind_still_counts_among_a_members_callers() =>
        CtsVerify.VerifyAsync("""
            using System.Threading;
            using System.Threading.Tasks;

            class Client
            {
                // Called from StartAsync (cold) and, per message, from a loop whose call does not bind (its argument's type is
                // missing): the member is not cold.
                async Task SendAsync(object message)
                {
                    using var timeout = {|#0:new CancellationTokenSource(5000)|};
                    await Task.Yield();
                }

                async Task StartAsync() => await SendAsync("hello");

                async Task PumpAsync({|CS0246:Inbox|} inbox)
                {
                    while (true)
                    {
                        await SendAsync(inbox.Next());
                    }
                }
            }
            """,
            ExpectedSource("new CancellationTokenSource(timeout)", "per-operation timeout", 0));

    [Fact]
    public Task The_callback_of_a_periodic_timer_left_unbound_by_an_unresolved_type_in_its_body_is_still_pacing() =>
        CtsVerify.VerifyAsync("""
            using System;
            using System.Collections.Generic;
            using System.Linq;
            using System.Threading;
            using System.Threading.Tasks;

            class ChannelPool
            {
                private readonly List<{|CS0246:IModel|}> _pool = new();
                private readonly TimeSpan _refresh = TimeSpan.FromSeconds(10);
                private Timer _scaling;
                private Timer _once;

                void SetupScaling(bool scaleUp)
                {
                    // The state of the inner timer has a missing type, so the outer creation does not bind: still periodic.
                    _scaling = new Timer(state =>
                    {
                        if (scaleUp)
                        {
                            var creation = new CancellationTokenSource(_refresh);
                            Create(creation.Token);
                            return;
                        }

                        var toRemove = _pool.FirstOrDefault();
                        Timer dispose = null;
                        dispose = new Timer(o => dispose?.Dispose(), toRemove, {|CS1503:_refresh|}, {|CS1503:Timeout.InfiniteTimeSpan|});
                    }, null, _refresh, _refresh);

                    // One-shot, unbound the same way: its callback is judged as any lambda.
                    _once = new Timer(state =>
                    {
                        var creation = {|#0:new CancellationTokenSource(_refresh)|};
                        Create(creation.Token);
                        var toRemove = _pool.FirstOrDefault();
                        Timer dispose = null;
                        dispose = new Timer(o => dispose?.Dispose(), toRemove, {|CS1503:_refresh|}, {|CS1503:Timeout.InfiniteTimeSpan|});
                    }, null, _refresh, Timeout.InfiniteTimeSpan);
                }

                static Task Create(CancellationToken token) => Task.CompletedTask;
            }
            """,
            ExpectedSource("new CancellationTokenSource(timeout)", "per-operation timeout", 0));

    [Fact]
    public Task A_run_loop_paced_by_an_unresolved_delay_is_paced() =>
        CtsVerify.VerifyAsync("""
            using System.Threading;
            using System.Threading.Tasks;

            class Cleanup
            {
                readonly {|CS0246:CleanupOptions|} _options;

                async Task RunAsync(CancellationToken ct)
                {
                    while (!ct.IsCancellationRequested)
                    {
                        await Task.Delay(_options.Interval, ct);
                        using var query = new CancellationTokenSource(5000);
                        await Task.Yield();
                    }
                }
            }
            """);

    [Fact]
    public Task A_source_whose_var_local_has_no_type_only_for_an_unresolved_argument_is_still_a_source() =>
        CtsVerify.VerifyAsync("""
            using System;
            using System.Threading;

            class Jobs
            {
                void Execute({|CS0246:Job|} job, CancellationToken ct)
                {
                    // Both branches are CancellationTokenSources; the first's call fails only for the job's missing type.
                    using var linked = job.Token != null
                        ? CancellationTokenSource.CreateLinkedTokenSource(ct, job.Token.Value)
                        : CancellationTokenSource.CreateLinkedTokenSource(ct);
                    {|#0:linked.CancelAfter(TimeSpan.FromSeconds(job.TimeoutSeconds))|};

                    // A value of unknown type: nothing says it is a source.
                    var other = job.CreateSource();
                    other.CancelAfter(1000);
                }
            }
            """,
            ExpectedSource("CancelAfter", "per-operation timeout", 0));

    [Fact]
    public Task An_unresolved_receiver_is_not_guessed_at() =>
        CtsVerify.VerifyAsync("""
            class Pool
            {
                readonly {|CS0246:ObjectPool<System.Threading.CancellationTokenSource>|} _pool;

                void Export(int timeout)
                {
                    // The receiver's type is unknown: nothing says this is CancellationTokenSource.CancelAfter.
                    var source = _pool.Get();
                    source.CancelAfter(timeout);
                }
            }
            """);

    [Fact]
    public Task Timers_and_delays_with_unresolved_times_are_judged_as_bound_ones() =>
        TimerVerify.VerifyAsync("""
            using System;
            using System.Threading;

            class Batch : IDisposable
            {
                readonly {|CS0246:BatchOptions|} _options;
                readonly Timer _limit;
                readonly Timer _report;

                Batch()
                {
                    // One-shot, one per instance, never re-armed: a timeout per batch.
                    _limit = {|#0:new Timer(Expired, null, _options.TimeLimit, Timeout.Infinite)|};
                    // Periodic (a positive constant period): a ticker, not a timeout.
                    _report = new Timer(Expired, null, _options.ReportDue, 1000);
                }

                void Expired(object state) { }

                public void Dispose() { _limit.Dispose(); _report.Dispose(); }
            }
            """,
            new DiagnosticResult(DiagnosticIds.ThreadingTimer, DiagnosticSeverity.Warning)
                .WithLocation(0).WithArguments("timeout held by its object, one per instance"));

    [Fact]
    public Task A_timer_that_fails_a_pending_task_with_an_exception_of_a_missing_type_is_still_a_timeout() =>
        TimerVerify.VerifyAsync("""
            using System;
            using System.Threading;
            using System.Threading.Tasks;

            class Publisher
            {
                protected virtual void SetupTimeout(TaskCompletionSource<ulong> ack, TimeSpan timeout)
                {
                    Timer timer = null;
                    timer = {|#0:new Timer(_ =>
                    {
                        ack.TrySetException(new {|CS0246:PublishConfirmException|}("no acknowledgement"));
                        timer?.Dispose();
                    }, null, timeout, Timeout.InfiniteTimeSpan)|};
                }
            }
            """,
            new DiagnosticResult(DiagnosticIds.ThreadingTimer, DiagnosticSeverity.Warning)
                .WithLocation(0).WithArguments("timeout timer that fails a pending task"));

    [Fact]
    public Task Delays_with_unresolved_times_race_and_pace_as_bound_ones() =>
        DelayVerify.VerifyAsync("""
            using System.Threading;
            using System.Threading.Tasks;

            class Worker
            {
                readonly {|CS0246:WorkerOptions|} _options;

                async Task Send(Task work, CancellationToken ct)
                {
                    // Raced in WhenAny: a timeout per call.
                    await Task.WhenAny(work, {|#0:Task.Delay(_options.SendTimeout, ct)|});
                }

                async Task RunAsync(CancellationToken ct)
                {
                    // A run loop paced by a configured delay: the timeout raced in it is once per period.
                    while (!ct.IsCancellationRequested)
                    {
                        await Task.Delay(_options.Interval, ct);
                        await Task.WhenAny(Task.CompletedTask, Task.Delay(_options.SendTimeout, ct));
                    }
                }
            }
            """,
            new DiagnosticResult(DiagnosticIds.TaskDelay, DiagnosticSeverity.Warning)
                .WithLocation(0).WithArguments("per-operation timeout"));

    [Fact]
    public Task No_fix_is_offered_on_an_unresolved_call() =>
        FixTest<TimeoutCancellationTokenSourceAnalyzer, TimeoutCancellationTokenSourceCodeFixProvider>.VerifyNotOfferedAsync("""
            using System.Threading;

            class Outbox
            {
                readonly {|CS0246:DeliveryOptions|} _options;

                void Deliver()
                {
                    using var query = [|new CancellationTokenSource(_options.QueryTimeout)|];
                    query.Token.ThrowIfCancellationRequested();
                }
            }
            """);

    private static DiagnosticResult ExpectedSource(string kind, string reason, int location) =>
        new DiagnosticResult(DiagnosticIds.TimeoutCancellationTokenSource, DiagnosticSeverity.Warning)
            .WithLocation(location).WithArguments(kind, reason);
}
