using System.Threading.Tasks;
using Xunit;
using Verify = CoarseTimers.Analyzers.Tests.CodeFixes.FixTest<
    CoarseTimers.Analyzers.Rules.ThreadingTimerAnalyzer,
    CoarseTimers.CodeFixes.Fixes.ThreadingTimerCodeFixProvider>;

namespace CoarseTimers.Analyzers.Tests.Rules;

public partial class ThreadingTimerTests
{
    [Fact]
    public Task Every_constructor_in_var_locals() => Verify.VerifyAsync(
        """
        using System;
        using System.Threading;

        class C
        {
            static void Tick(object? state)
            {
            }

            void M()
            {
                using var a = {|CT0003:new Timer(_ => Tick(null))|};
                using var b = {|CT0003:new Timer(Tick, null, 100, 100)|};
                using var c = {|CT0003:new Timer(Tick, null, 100L, 100L)|};
                using var d = {|CT0003:new Timer(Tick, null, TimeSpan.FromSeconds(1), Timeout.InfiniteTimeSpan)|};
                using var e = {|CT0003:new Timer(Tick, null, 100u, 100u)|};
                a.Change(10, 10);
            }
        }
        """,
        """
        using System;
        using System.Threading;
        using CoarseTimers;

        class C
        {
            static void Tick(object? state)
            {
            }

            void M()
            {
                using var a = new CoarseTimer(_ => Tick(null));
                using var b = new CoarseTimer(Tick, null, 100, 100);
                using var c = new CoarseTimer(Tick, null, 100L, 100L);
                using var d = new CoarseTimer(Tick, null, TimeSpan.FromSeconds(1), Timeout.InfiniteTimeSpan);
                using var e = new CoarseTimer(Tick, null, 100u, 100u);
                a.Change(10, 10);
            }
        }
        """);

    [Fact]
    public Task A_field_stored_with_null_coalescing_assignment_changes_type() => Verify.VerifyAsync(
        """
        using System.Threading;

        class Reply
        {
            private Timer? _timeout;

            public void Arm(TimerCallback onTimeout) => _timeout ??= {|CT0003:new Timer(onTimeout, null, 5000, Timeout.Infinite)|};

            public void Complete() => _timeout?.Dispose();
        }
        """,
        """
        using System.Threading;
        using CoarseTimers;

        class Reply
        {
            private CoarseTimer? _timeout;

            public void Arm(TimerCallback onTimeout) => _timeout ??= new CoarseTimer(onTimeout, null, 5000, Timeout.Infinite);

            public void Complete() => _timeout?.Dispose();
        }
        """);

    [Fact]
    public Task A_timer_kept_alive_changes_type() => Verify.VerifyAsync(
        """
        using System;
        using System.Threading;

        class C
        {
            void M()
            {
                Timer timer = {|CT0003:new Timer(_ => { }, null, 100, 100)|};
                GC.KeepAlive(timer);
            }
        }
        """,
        """
        using System;
        using System.Threading;
        using CoarseTimers;

        class C
        {
            void M()
            {
                CoarseTimer timer = new CoarseTimer(_ => { }, null, 100, 100);
                GC.KeepAlive(timer);
            }
        }
        """);

    [Fact]
    public Task A_field_whose_target_typed_one_argument_timer_reads_its_state_keeps_the_BCL_type() => Verify.VerifyNotOfferedAsync(
        """
        using System.Threading;

        class C
        {
            private Timer? _timer;

            void Arm() => _timer = {|CT0003:new Timer(_ => { }, null, 50, -1)|};

            // `new(callback)` hands the timer itself to the callback as its state.
            void Rearm() => _timer = {|CT0003:new(state => ((Timer)state!).Dispose())|};
        }
        """);

    [Fact]
    public Task A_field_read_through_another_instantiation_of_its_generic_type_keeps_the_BCL_type() => Verify.VerifyNotOfferedAsync(
        """
        using System.Threading;

        class Box<T>
        {
            private Timer? _timer;

            public void Arm() => _timer = {|CT0003:new Timer(_ => { }, null, 50, -1)|};

            public static Timer? Peek(Box<int> other) => other._timer;
        }
        """);

    [Fact]
    public Task Explicitly_typed_local_changes_type() => Verify.VerifyAsync(
        """
        using System.Threading;

        class C
        {
            void M()
            {
                Timer timer = {|CT0003:new Timer(_ => { }, null, 100, Timeout.Infinite)|};
                timer.Change(200, Timeout.Infinite);
                timer?.Dispose();
            }
        }
        """,
        """
        using System.Threading;
        using CoarseTimers;

        class C
        {
            void M()
            {
                CoarseTimer timer = new CoarseTimer(_ => { }, null, 100, Timeout.Infinite);
                timer.Change(200, Timeout.Infinite);
                timer?.Dispose();
            }
        }
        """);

    [Fact]
    public Task A_one_argument_timer_whose_callback_reads_itself_as_state_is_not_rewritten() => Verify.VerifyNotOfferedAsync(
        """
        using System.Threading;

        class C
        {
            static void OnTick(object? state) => ((Timer)state!).Dispose();

            void M()
            {
                var t = {|CT0003:new Timer(s => ((Timer)s!).Dispose())|};
                t.Change(50, Timeout.Infinite);
                var u = {|CT0003:new Timer(OnTick)|};
                u.Change(50, Timeout.Infinite);
            }
        }
        """);

    [Fact]
    public Task A_one_argument_timer_whose_callback_ignores_its_state_is_rewritten() => Verify.VerifyAsync(
        """
        using System.Threading;

        class C
        {
            void M()
            {
                var t = {|CT0003:new Timer(_ => { })|};
                t.Change(50, Timeout.Infinite);
            }
        }
        """,
        """
        using System.Threading;
        using CoarseTimers;

        class C
        {
            void M()
            {
                var t = new CoarseTimer(_ => { });
                t.Change(50, Timeout.Infinite);
            }
        }
        """);

    [Fact]
    public Task An_explicit_interface_property_is_not_retyped() => Verify.VerifyNotOfferedAsync(
        """
        using System.Threading;

        interface ITimerHolder
        {
            Timer Timer { get; }
        }

        class Holder : ITimerHolder
        {
            Timer ITimerHolder.Timer { get; } = {|CT0003:new Timer(_ => { }, null, 100, Timeout.Infinite)|};
        }
        """);

    [Fact]
    public Task Private_field_assigned_in_a_method_changes_type() => Verify.VerifyAsync(
        """
        using System.Threading;

        class C : System.IDisposable
        {
            private Timer? _timer;

            void Start() => _timer = {|CT0003:new Timer(_ => { }, null, 100, 100)|};

            public void Dispose()
            {
                if (_timer != null)
                {
                    _timer.Dispose();
                }
            }
        }
        """,
        """
        using System.Threading;
        using CoarseTimers;

        class C : System.IDisposable
        {
            private CoarseTimer? _timer;

            void Start() => _timer = new CoarseTimer(_ => { }, null, 100, 100);

            public void Dispose()
            {
                if (_timer != null)
                {
                    _timer.Dispose();
                }
            }
        }
        """);

    [Fact]
    public Task A_public_property_of_a_private_nested_type_changes_type() => Verify.VerifyAsync(
        """
        using System;
        using System.Threading;

        class Aggregator
        {
            // Nothing outside Aggregator can name Batch, so every use of FlushTimer is in this class.
            private sealed class Batch
            {
                public Timer? FlushTimer { get; set; }
                public int Count;
            }

            private Batch? _current;

            void Add()
            {
                var batch = _current ??= new Batch();
                batch.Count++;
                batch.FlushTimer = {|CT0003:new Timer(_ => { }, null, 100, Timeout.Infinite)|};
            }

            void Flush()
            {
                _current?.FlushTimer?.Dispose();
                _current = null;
            }
        }
        """,
        """
        using System;
        using System.Threading;
        using CoarseTimers;

        class Aggregator
        {
            // Nothing outside Aggregator can name Batch, so every use of FlushTimer is in this class.
            private sealed class Batch
            {
                public CoarseTimer? FlushTimer { get; set; }
                public int Count;
            }

            private Batch? _current;

            void Add()
            {
                var batch = _current ??= new Batch();
                batch.Count++;
                batch.FlushTimer = new CoarseTimer(_ => { }, null, 100, Timeout.Infinite);
            }

            void Flush()
            {
                _current?.FlushTimer?.Dispose();
                _current = null;
            }
        }
        """);

    [Theory]
    [InlineData("internal sealed class Batch { public Timer? FlushTimer { get; set; } }")]
    [InlineData("private sealed class Batch : IHolder { public Timer? FlushTimer { get; set; } }")]
    [InlineData("private class Batch { public virtual Timer? FlushTimer { get; set; } }")]
    public Task A_property_code_elsewhere_may_reach_or_that_implements_a_contract_is_not_retyped(string batch) => Verify.VerifyNotOfferedAsync(
        $$"""
        using System.Threading;

        interface IHolder
        {
            Timer? FlushTimer { get; set; }
        }

        class Aggregator
        {
            {{batch}}

            void Add(Batch batch) => batch.FlushTimer = {|CT0003:new Timer(_ => { }, null, 100, Timeout.Infinite)|};
        }
        """);

    [Fact]
    public Task Private_auto_property_with_target_typed_new_changes_type() => Verify.VerifyAsync(
        """
        using System.Threading;

        class C
        {
            private Timer Heartbeat { get; set; } = {|CT0003:new(_ => { }, null, 100, 100)|};

            void Stop() => Heartbeat.Dispose();
        }
        """,
        """
        using System.Threading;
        using CoarseTimers;

        class C
        {
            private CoarseTimer Heartbeat { get; set; } = new(_ => { }, null, 100, 100);

            void Stop() => Heartbeat.Dispose();
        }
        """);

    [Fact]
    public Task Stored_as_an_interface_only_the_creation_changes() => Verify.VerifyAsync(
        """
        using System;
        using System.Threading;

        class C
        {
            private IDisposable? _tick;
            private ITimer? _timer;

            void M()
            {
                _tick = {|CT0003:new Timer(_ => { }, null, 100, 100)|};
                _timer = {|CT0003:new Timer(_ => { }, null, 100, 100)|};
            }
        }
        """,
        """
        using System;
        using System.Threading;
        using CoarseTimers;

        class C
        {
            private IDisposable? _tick;
            private ITimer? _timer;

            void M()
            {
                _tick = new CoarseTimer(_ => { }, null, 100, 100);
                _timer = new CoarseTimer(_ => { }, null, 100, 100);
            }
        }
        """);

    [Fact]
    public Task Timer_created_in_another_timers_callback() => Verify.VerifyAsync(
        """
        using System.Threading;

        class C
        {
            void M()
            {
                var outer = {|CT0003:new Timer(_ =>
                {
                    var inner = {|CT0003:new Timer(_ => { }, null, 10, Timeout.Infinite)|};
                    inner.Change(20, Timeout.Infinite);
                }, null, 100, 100)|};
                outer.Dispose();
            }
        }
        """,
        """
        using System.Threading;
        using CoarseTimers;

        class C
        {
            void M()
            {
                var outer = new CoarseTimer(_ =>
                {
                    var inner = new CoarseTimer(_ => { }, null, 10, Timeout.Infinite);
                    inner.Change(20, Timeout.Infinite);
                }, null, 100, 100);
                outer.Dispose();
            }
        }
        """);

    [Fact]
    public Task Timer_passed_as_a_Timer_argument_is_not_fixed() => Verify.VerifyNotOfferedAsync(
        """
        using System.Threading;

        class C
        {
            static void Keep(Timer timer)
            {
            }

            void M()
            {
                Keep({|CT0003:new Timer(_ => { }, null, 100, 100)|});
                var timer = {|CT0003:new Timer(_ => { }, null, 100, 100)|};
                Keep(timer);
            }
        }
        """);

    [Fact]
    public Task Timer_returned_as_Timer_is_not_fixed() => Verify.VerifyNotOfferedAsync(
        """
        using System.Threading;

        class C
        {
            Timer Create()
            {
                var timer = {|CT0003:new Timer(_ => { }, null, 100, 100)|};
                return timer;
            }

            Timer CreateDirectly() => {|CT0003:new Timer(_ => { }, null, 100, 100)|};
        }
        """);

    [Fact]
    public Task Timer_in_a_non_private_field_is_not_fixed() => Verify.VerifyNotOfferedAsync(
        """
        using System.Threading;

        public class C
        {
            internal Timer? Timer;

            void M() => Timer = {|CT0003:new Timer(_ => { }, null, 100, 100)|};
        }
        """);

    [Fact]
    public Task Timer_used_through_an_extension_or_type_test_is_not_fixed() => Verify.VerifyNotOfferedAsync(
        """
        using System.Threading;

        static class TimerExtensions
        {
            public static void Restart(this Timer timer) => timer.Change(0, 100);
        }

        class C
        {
            void M(object other)
            {
                var timer = {|CT0003:new Timer(_ => { }, null, 100, 100)|};
                timer.Restart();
                Timer kept = {|CT0003:new Timer(_ => { }, null, 100, 100)|};
                if (other is Timer)
                {
                    kept = (Timer)other;
                }
            }
        }
        """);

    [Fact]
    public Task Timer_handed_on_as_IDisposable_keeps_the_BCL_type() => Verify.VerifyNotOfferedAsync(
        """
        using System;
        using System.Threading;

        class C
        {
            // Whoever receives it may test it for Timer (`d is Timer t`, then `t.Dispose(waitHandle)`).
            static void Own(IDisposable resource) => resource.Dispose();

            void M()
            {
                Timer timer = {|CT0003:new Timer(_ => { }, null, 100, 100)|};
                GC.KeepAlive(timer);
                Own(timer);
                IDisposable[] pair = { {|CT0003:new Timer(_ => { }, null, 3, 3)|} };
            }
        }
        """);

    [Fact]
    public Task Timer_handed_on_by_a_chained_assignment_is_not_fixed() => Verify.VerifyNotOfferedAsync(
        """
        using System.Threading;

        class C
        {
            private Timer? _a;
            private Timer? _b;

            void M() => _a = _b = {|CT0003:new Timer(_ => { }, null, 100, 100)|};

            void Stop() => _a?.Dispose();
        }
        """);

    /// <summary>Only the name the fix writes is formatted (the space before it included); the user's layout stays.</summary>
    [Fact]
    public Task Formatting_inside_the_rewritten_creation_is_kept() => Verify.VerifyAsync(
        """
        using System.Threading;

        class C
        {
            void M()
            {
                // aligned on purpose
                using Timer timer = {|CT0003:new( /* callback */ _ => { },
                                      null,   100,
                                      100 )|};
                using var other = {|CT0003:new   Timer( /* callback */ _ => { },
                                      null,   100,
                                      100 )|};
            }
        }
        """,
        """
        using System.Threading;
        using CoarseTimers;

        class C
        {
            void M()
            {
                // aligned on purpose
                using CoarseTimer timer = new( /* callback */ _ => { },
                                      null,   100,
                                      100 );
                using var other = new CoarseTimer( /* callback */ _ => { },
                                      null,   100,
                                      100 );
            }
        }
        """);

    [Fact]
    public Task Timers_sharing_one_declaration_are_not_fixed() => Verify.VerifyNotOfferedAsync(
        """
        using System.Threading;

        class C
        {
            void M()
            {
                Timer first = {|CT0003:new Timer(_ => { }, null, 1, 1)|}, second = {|CT0003:new Timer(_ => { }, null, 2, 2)|};
                first.Dispose();
                second.Dispose();
            }
        }
        """);

    [Fact]
    public Task Not_offered_without_the_runtime() => Verify.VerifyNotOfferedAsync(
        """
        using System.Threading;

        class C
        {
            void M()
            {
                using var timer = {|CT0003:new Timer(_ => { }, null, 100, 100)|};
            }
        }
        """,
        referenceRuntime: false);
}
