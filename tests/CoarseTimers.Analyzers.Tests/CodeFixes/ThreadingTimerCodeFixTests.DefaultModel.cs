using System.Threading.Tasks;
using Xunit;
using Verify = CoarseTimers.Analyzers.Tests.CodeFixes.FixTest<CoarseTimers.Analyzers.Rules.ThreadingTimerAnalyzer, CoarseTimers.CodeFixes.Fixes.ThreadingTimerCodeFixProvider>;

namespace CoarseTimers.Analyzers.Tests.Rules;

public partial class ThreadingTimerTests
{
    [Fact]
    public Task Field_declaration_changes_type_with_every_timer_stored_in_it() =>
        Verify.VerifyUnderDefaultModelAsync("""
            using System;
            using System.Threading;

            [CoarseTimers.HotPath]
            sealed class Connection : IDisposable
            {
                private readonly Timer _keepAlive;

                public Connection() => _keepAlive = {|CT0003:new Timer(_ => { }, null, 1000, 1000)|};

                public bool Touch() => _keepAlive.Change(TimeSpan.FromSeconds(1), TimeSpan.FromSeconds(1));

                public void Dispose() => _keepAlive?.Dispose();
            }
            """, """
            using System;
            using System.Threading;
            using CoarseTimers;

            [CoarseTimers.HotPath]
            sealed class Connection : IDisposable
            {
                private readonly CoarseTimer _keepAlive;

                public Connection() => _keepAlive = new CoarseTimer(_ => { }, null, 1000, 1000);

                public bool Touch() => _keepAlive.Change(TimeSpan.FromSeconds(1), TimeSpan.FromSeconds(1));

                public void Dispose() => _keepAlive?.Dispose();
            }
            """);

    [Fact]
    public Task A_timer_that_fails_a_pending_task_and_disposes_itself_becomes_a_CoarseTimer() =>
        Verify.VerifyUnderDefaultModelAsync("""
            using System;
            using System.Threading;
            using System.Threading.Tasks;

            class Publisher
            {
                public Task<ulong> PublishAsync(TimeSpan timeout)
                {
                    var ack = new TaskCompletionSource<ulong>();
                    Timer timer = null;
                    timer = {|CT0003:new Timer(_ =>
                    {
                        ack.TrySetException(new TimeoutException());
                        timer?.Dispose();
                    }, null, timeout, Timeout.InfiniteTimeSpan)|};
                    return ack.Task;
                }
            }
            """, """
            using System;
            using System.Threading;
            using System.Threading.Tasks;
            using CoarseTimers;

            class Publisher
            {
                public Task<ulong> PublishAsync(TimeSpan timeout)
                {
                    var ack = new TaskCompletionSource<ulong>();
                    CoarseTimer timer = null;
                    timer = new CoarseTimer(_ =>
                    {
                        ack.TrySetException(new TimeoutException());
                        timer?.Dispose();
                    }, null, timeout, Timeout.InfiniteTimeSpan);
                    return ack.Task;
                }
            }
            """);

    [Fact]
    public Task A_per_instance_timeout_field_becomes_a_CoarseTimer() =>
        Verify.VerifyUnderDefaultModelAsync("""
            using System;
            using System.Threading;

            sealed class RequestHandle : IDisposable
            {
                private Timer? _timeoutTimer;

                public void Send(TimeSpan timeToLive) =>
                    _timeoutTimer = {|CT0003:new Timer(_ => { }, this, (long)timeToLive.TotalMilliseconds, Timeout.Infinite)|};

                public void Dispose()
                {
                    _timeoutTimer?.Dispose();
                    _timeoutTimer = null;
                }
            }
            """, """
            using System;
            using System.Threading;
            using CoarseTimers;

            sealed class RequestHandle : IDisposable
            {
                private CoarseTimer? _timeoutTimer;

                public void Send(TimeSpan timeToLive) =>
                    _timeoutTimer = new CoarseTimer(_ => { }, this, (long)timeToLive.TotalMilliseconds, Timeout.Infinite);

                public void Dispose()
                {
                    _timeoutTimer?.Dispose();
                    _timeoutTimer = null;
                }
            }
            """);

    [Fact]
    public Task Locals_explicit_and_var_and_interface_typed_and_discarded() =>
        Verify.VerifyUnderDefaultModelAsync("""
            using System;
            using System.Threading;

            class C
            {
                void M()
                {
                    for (var i = 0; i < 3; i++)
                    {
                        using Timer a = {|CT0003:new Timer(_ => { })|};
                        a.Change(10, Timeout.Infinite);
                        using var b = {|CT0003:new Timer(_ => { }, null, 10L, -1L)|};
                        IDisposable c = {|CT0003:new Timer(_ => { }, null, TimeSpan.Zero, Timeout.InfiniteTimeSpan)|};
                        c.Dispose();
                    }
                }
            }
            """, """
            using System;
            using System.Threading;
            using CoarseTimers;

            class C
            {
                void M()
                {
                    for (var i = 0; i < 3; i++)
                    {
                        using CoarseTimer a = new CoarseTimer(_ => { });
                        a.Change(10, Timeout.Infinite);
                        using var b = new CoarseTimer(_ => { }, null, 10L, -1L);
                        IDisposable c = new CoarseTimer(_ => { }, null, TimeSpan.Zero, Timeout.InfiniteTimeSpan);
                        c.Dispose();
                    }
                }
            }
            """);

    [Fact]
    public Task No_fix_where_the_timer_escapes() =>
        Verify.VerifyNotOfferedUnderDefaultModelAsync("""
            using System.Threading;

            class C
            {
                public Timer Exposed;

                Timer M()
                {
                    for (;;)
                    {
                        var passed = {|CT0003:new Timer(_ => { })|};
                        Keep(passed);
                        Exposed = {|CT0003:new Timer(_ => { })|};
                        Keep({|CT0003:new Timer(_ => { })|});
                        var tested = {|CT0003:new Timer(_ => { })|};
                        object boxed = tested;
                        return {|CT0003:new Timer(_ => { })|};
                    }
                }

                static void Keep(Timer timer) { }
            }
            """);
}
