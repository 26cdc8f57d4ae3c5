using System.Threading.Tasks;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.Testing;
using Xunit;
using Verify = CoarseTimers.Analyzers.Tests.Infrastructure.AnalyzerVerifier<CoarseTimers.Analyzers.Rules.TimeoutCancellationTokenSourceAnalyzer>;

namespace CoarseTimers.Analyzers.Tests.Rules;

public partial class TimeoutCancellationTokenSourceTests
{
    private static DiagnosticResult Expected(string kind, string reason, int location = 0) =>
        new DiagnosticResult(DiagnosticIds.TimeoutCancellationTokenSource, DiagnosticSeverity.Warning).WithLocation(location).WithArguments(kind, reason);

    [Theory]
    [InlineData("using var cts = {|#0:new CancellationTokenSource(TimeSpan.FromSeconds(5))|};")]
    [InlineData("using (var cts = {|#0:new CancellationTokenSource(5000)|}) { }")]
    [InlineData("CancellationTokenSource cts = {|#0:new(5000)|}; cts.Dispose();")]
    [InlineData("CancellationTokenSource cts; cts = {|#0:new CancellationTokenSource(5000)|};")]
    public Task Timeout_source_in_a_local_is_a_per_operation_timeout(string body) =>
        Verify.VerifyAsync(TaskDelayTests.Wrap(body), Expected("new CancellationTokenSource(timeout)", "per-operation timeout"));

    [Theory]
    [InlineData("using var cts = new CancellationTokenSource(); {|#0:cts.CancelAfter(5000)|};")]
    [InlineData("using var cts = CancellationTokenSource.CreateLinkedTokenSource(default, default); {|#0:cts.CancelAfter(TimeSpan.FromSeconds(1))|};")]
    public Task CancelAfter_on_a_local_is_a_per_operation_timeout(string body) =>
        Verify.VerifyAsync(TaskDelayTests.Wrap(body), Expected("CancelAfter", "per-operation timeout"));

    // A fallback that runs only after the first attempt failed: a failure path, as its catch block is.
    [Theory]
    [InlineData("try { await Work(); return; } catch (TimeoutException) { } using var cts = new CancellationTokenSource(5000); await Task.Delay(1, cts.Token);", false)]
    [InlineData("try { await Work(); } catch (TimeoutException) { } using var cts = {|#0:new CancellationTokenSource(5000)|}; await Task.Delay(1, cts.Token);", true)]
    public Task A_timeout_reached_only_after_a_caught_exception_is_a_failure_path(string body, bool flagged) =>
        flagged
            ? Verify.VerifyAsync(TaskDelayTests.Wrap(body), Expected("new CancellationTokenSource(timeout)", "per-operation timeout"))
            : Verify.VerifyAsync(TaskDelayTests.Wrap(body));

    [Theory]
    [InlineData("using var cts = new CancellationTokenSource();")]
    [InlineData("using var cts = new CancellationTokenSource(TimeSpan.FromSeconds(5), TimeProvider.System);")]
    [InlineData("s_field = new CancellationTokenSource(5000);")]
    [InlineData("s_field.CancelAfter(5000);")]
    [InlineData("Use(new CancellationTokenSource(5000));")]
    public Task Sources_without_timeout_or_held_elsewhere_are_cold(string body) =>
        Verify.VerifyAsync(Wrap(body));

    [Fact]
    public Task A_source_whose_token_is_passed_to_a_call_bounds_that_call() =>
        Verify.VerifyAsync("""
            using System;
            using System.Threading;
            using System.Threading.Tasks;

            class ChangeToken { public ChangeToken(CancellationToken token) { } }

            class Runner
            {
                Task<int> RunAsync(string id, CancellationToken token) => Task.FromResult(0);

                // Inline, never disposed: one source per call, dropped after it.
                public Task<int> RunSync(string id, TimeSpan timeout) => RunAsync(id, {|#0:new CancellationTokenSource(timeout)|}.Token);

                public Task<int> RunLinked(string id, TimeSpan timeout, CancellationToken cancellationToken)
                {
                    using var linked = CancellationTokenSource.CreateLinkedTokenSource({|#1:new CancellationTokenSource(timeout)|}.Token, cancellationToken);
                    return RunAsync(id, linked.Token);
                }

                // Kept by the object it is given to: a change signal for that object's life, which fires.
                public ChangeToken Watch(TimeSpan period) => new ChangeToken(new CancellationTokenSource(period).Token);

                // A source passed itself, not its token, says nothing.
                public void Hand(Action<CancellationTokenSource> use) => use(new CancellationTokenSource(1000));
            }
            """,
            Expected("new CancellationTokenSource(timeout)", "per-operation timeout", 0),
            Expected("new CancellationTokenSource(timeout)", "per-operation timeout", 1));

    [Fact]
    public Task A_dropped_source_whose_token_stays_in_a_local_or_parameter_bounds_the_call() =>
        Verify.VerifyAsync("""
            using System;
            using System.IO;
            using System.Threading;
            using System.Threading.Tasks;

            class Connection
            {
                CancellationToken _lifetime;
                public int Timeout { get; set; } = 3000;

                // The caller gave no token: one source per read, only its token kept.
                public async Task<int> ReadAsync(Stream stream, byte[] buffer, CancellationToken cancellationToken = default)
                {
                    if (cancellationToken == CancellationToken.None)
                        cancellationToken = {|#0:new CancellationTokenSource(Timeout)|}.Token;
                    return await stream.ReadAsync(buffer, 0, buffer.Length, cancellationToken);
                }

                public async Task<int> PeekAsync(Stream stream, byte[] buffer)
                {
                    var token = {|#1:new CancellationTokenSource(Timeout)|}.Token;
                    return await stream.ReadAsync(buffer, 0, 1, token);
                }

                // Kept by the object: its lifetime, not one call's.
                public void Arm() => _lifetime = new CancellationTokenSource(Timeout).Token;

                // Handed back to the caller through an out parameter: the caller's storage, not this call's.
                public void Arm(out CancellationToken sessionToken) => sessionToken = new CancellationTokenSource(Timeout).Token;
            }
            """,
            Expected("new CancellationTokenSource(timeout)", "per-operation timeout", 0),
            Expected("new CancellationTokenSource(timeout)", "per-operation timeout", 1));

    [Fact]
    public Task A_source_chosen_by_a_condition_is_judged_where_the_choice_goes() =>
        Verify.VerifyAsync("""
            using System;
            using System.Threading;
            using System.Threading.Tasks;

            class JobEndpoint
            {
                CancellationTokenSource _shared;

                Task RunAsync(CancellationToken token) => Task.CompletedTask;

                // One source per request, with a timeout only when one is configured.
                public async Task HandleAsync(TimeSpan? timeout)
                {
                    using var cts = timeout.HasValue ? {|#0:new CancellationTokenSource(timeout.Value)|} : new CancellationTokenSource();
                    await RunAsync(cts.Token);
                }

                public async Task HandleOrDefaultAsync(CancellationTokenSource given, TimeSpan timeout)
                {
                    using var cts = given ?? {|#1:new CancellationTokenSource(timeout)|};
                    await RunAsync(cts.Token);
                }

                // Chosen into a static field: held for the process, as a source stored there directly.
                public static CancellationTokenSource s_process;
                public void Configure(TimeSpan? timeout) => s_process = timeout is { } t ? new CancellationTokenSource(t) : null;
            }
            """,
            Expected("new CancellationTokenSource(timeout)", "per-operation timeout", 0),
            Expected("new CancellationTokenSource(timeout)", "per-operation timeout", 1));

    [Fact]
    public Task Timeout_lifetimes_followed_through_factories_fields_and_reused_sources() =>
        Verify.VerifyAsync("""
            using System;
            using System.Threading;

            sealed class ReplyListener
            {
                private readonly CancellationTokenSource _timeout;
                private readonly CancellationTokenSource _pooled = new();

                public ReplyListener(TimeSpan timeout) => _timeout = {|#0:new CancellationTokenSource(timeout)|};

                public static CancellationTokenSource CreateTimeoutSource(TimeSpan timeout) => {|#1:new CancellationTokenSource(timeout)|};

                public void Rent(TimeSpan timeout) => {|#2:_pooled.CancelAfter(timeout)|};

                public static void Arm(CancellationTokenSource source) => {|#3:source.CancelAfter(100)|};

                // Through a null-conditional call, as the plain ones; "effectively no timeout" still queues a timer.
                public void RentIfAny(TimeSpan timeout) => _pooled?{|#4:.CancelAfter(timeout)|};
                public static void ArmIfAny(CancellationTokenSource? source) => source?{|#5:.CancelAfter(int.MaxValue)|};
            }
            """,
            Expected("new CancellationTokenSource(timeout)", "timeout held by its object, one per instance", 0),
            Expected("new CancellationTokenSource(timeout)", "timeout created by a factory method, per call", 1),
            Expected("CancelAfter", "reused source re-armed per call", 2),
            Expected("CancelAfter", "reused source re-armed per call", 3),
            Expected("CancelAfter", "reused source re-armed per call", 4),
            Expected("CancelAfter", "reused source re-armed per call", 5));

    [Fact]
    public Task A_factory_that_returns_a_new_sources_token_makes_one_timeout_per_call() =>
        Verify.VerifyAsync("""
            using System;
            using System.Threading;

            sealed class Interactivity
            {
                private readonly TimeSpan _timeout = TimeSpan.FromSeconds(30);

                // One new source per call, dropped at once: its token is the call's timeout.
                private CancellationToken GetCancellationToken(TimeSpan? timeout = null) => {|#0:new CancellationTokenSource(timeout ?? _timeout)|}.Token;

                public CancellationToken TimeoutToken(int milliseconds)
                {
                    return ({|#1:new CancellationTokenSource(milliseconds)|}).Token;
                }
            }
            """,
            Expected("new CancellationTokenSource(timeout)", "timeout created by a factory method, per call", 0),
            Expected("new CancellationTokenSource(timeout)", "timeout created by a factory method, per call", 1));

    // A by-value parameter holds a source created per call as a local would; a ref parameter is the caller's variable.
    [Fact]
    public Task A_source_stored_in_a_by_value_parameter_is_per_call() =>
        Verify.VerifyAsync("""
            using System;
            using System.Threading;

            sealed class Client
            {
                private readonly TimeSpan _timeout = TimeSpan.FromSeconds(5);

                public void Send(string message, CancellationTokenSource? source = null)
                {
                    source ??= {|#0:new CancellationTokenSource(_timeout)|};
                    Console.WriteLine(message + source.Token.IsCancellationRequested);
                }

                public static CancellationToken Environment(TimeSpan? timeout = null, CancellationTokenSource? source = null)
                {
                    if (source is null)
                    {
                        source = timeout is null ? new CancellationTokenSource() : {|#1:new CancellationTokenSource(timeout.Value)|};
                    }

                    return source.Token;
                }

                public static void Reset(ref CancellationTokenSource source) => source = new CancellationTokenSource(5000);
            }
            """,
            Expected("new CancellationTokenSource(timeout)", "per-operation timeout", 0),
            Expected("new CancellationTokenSource(timeout)", "per-operation timeout", 1));

    // Returned through a local, the message says factory too (the code fix leaves such a site to be rewritten by hand).
    [Fact]
    public Task A_factory_that_returns_its_local_source_says_so() =>
        Verify.VerifyAsync("""
            using System;
            using System.Threading;

            static class Timeouts
            {
                public static CancellationTokenSource Linked(CancellationToken outer, TimeSpan timeout)
                {
                    var cts = CancellationTokenSource.CreateLinkedTokenSource(outer);
                    {|#0:cts.CancelAfter(timeout)|};
                    return cts;
                }

                public static CancellationTokenSource ForDeadline(TimeSpan remaining)
                {
                    var cts = {|#1:new CancellationTokenSource(remaining)|};
                    return cts;
                }

                // Returned only from a lambda: the method itself is not a factory.
                public static Func<CancellationTokenSource> Later(TimeSpan timeout)
                {
                    var cts = {|#2:new CancellationTokenSource(timeout)|};
                    return () => cts;
                }
            }
            """,
            Expected("CancelAfter", "timeout created by a factory method, per call", 0),
            Expected("new CancellationTokenSource(timeout)", "timeout created by a factory method, per call", 1),
            Expected("new CancellationTokenSource(timeout)", "per-operation timeout", 2));

    [Fact]
    public Task A_token_wrapped_in_a_change_token_or_returned_by_a_lambda_is_not_a_timeout_factory() =>
        Verify.VerifyAsync("""
            using System;
            using System.Threading;

            sealed class ChangeToken
            {
                public ChangeToken(CancellationToken token) => Token = token;
                public CancellationToken Token { get; }
            }

            sealed class Reloader
            {
                // A change signal that fires once per period, not a timeout per call.
                public ChangeToken GetReloadToken(TimeSpan period) => new ChangeToken(new CancellationTokenSource(period).Token);

                // A lambda that returns a token says nothing about how often it runs.
                public Func<CancellationToken> Factory(TimeSpan timeout) => () => new CancellationTokenSource(timeout).Token;
            }
            """);

    [Theory]
    [InlineData("using var cts = new CancellationTokenSource(Timeout.InfiniteTimeSpan);")]
    [InlineData("using var cts = new CancellationTokenSource(); cts.CancelAfter(Timeout.Infinite);")]
    [InlineData("s_field.CancelAfter(-1);")]
    [InlineData("for (;;) { using var cts = new CancellationTokenSource(); cts.CancelAfter(Timeout.InfiniteTimeSpan); }")]
    [InlineData("try { } catch (Exception) { using var cts = new CancellationTokenSource(5000); }")]
    public Task Infinite_timeouts_and_failure_paths_are_never_flagged(string body) =>
        Verify.VerifyAsync(Wrap(body));

    [Fact]
    public Task A_timeout_parameter_that_every_caller_passes_as_infinite_queues_no_timer() =>
        Verify.VerifyAsync("""
            using System;
            using System.Threading;

            class Session
            {
                private readonly CancellationTokenSource _pooled = new();

                void Run(int timeoutMs) { using var cts = new CancellationTokenSource(timeoutMs); }
                void Rearm(TimeSpan timeout) => _pooled.CancelAfter(timeout);
                void Send(int timeoutMs) { using var cts = {|#0:new CancellationTokenSource(timeoutMs)|}; }
                void Bump(int timeoutMs) { timeoutMs++; using var cts = {|#1:new CancellationTokenSource(timeoutMs)|}; }

                void Use()
                {
                    Run(Timeout.Infinite);
                    Run(-1);
                    Rearm(Timeout.InfiniteTimeSpan);
                    Send(Timeout.Infinite);
                    Send(1000);
                    Bump(Timeout.Infinite);
                }
            }
            """,
            Expected("new CancellationTokenSource(timeout)", "per-operation timeout", 0),
            Expected("new CancellationTokenSource(timeout)", "per-operation timeout", 1));

    [Fact]
    public Task Lifecycle_and_test_code_is_cold() =>
        Verify.VerifyAsync("""
            using System;
            using System.Threading;

            class Listener
            {
                void StopAndDrain() { using var cts = new CancellationTokenSource(5000); }
                void Dispose() { using var cts = new CancellationTokenSource(); cts.CancelAfter(1000); }
                static CancellationTokenSource CreateForShutdown() => new CancellationTokenSource(5000);
            }

            sealed class ConnectContext
            {
                private readonly CancellationTokenSource _cts = new CancellationTokenSource(5000);
            }

            class TestingExtensions
            {
                void WaitForLeader() { using var cts = new CancellationTokenSource(5000); }
            }
            """);

    [Fact]
    public Task Field_source_in_a_loop_is_hot() =>
        Verify.VerifyAsync(Wrap("for (;;) { {|#0:s_field.CancelAfter(50)|}; }"), Expected("CancelAfter", "inside a loop"));

    [Fact]
    public Task A_long_timeout_in_a_loop_paces_it_unless_it_never_fires() =>
        Task.WhenAll(
            // A minute per turn: the loop waits for it (a long poll), once per period.
            Verify.VerifyAsync(Wrap("for (;;) { s_field.CancelAfter(60_000); }")),
            // "Effectively no timeout": a 24.8-day timer queued and replaced every turn, never reached.
            Verify.VerifyAsync(Wrap("for (;;) { {|#0:s_field.CancelAfter(int.MaxValue)|}; }"), Expected("CancelAfter", "inside a loop")),
            Verify.VerifyAsync(Wrap("for (;;) { {|#0:s_field.CancelAfter(TimeSpan.FromDays(1))|}; }"), Expected("CancelAfter", "inside a loop")));

    [Fact]
    public Task Per_operation_timeouts_switch_off() =>
        Verify.VerifyAsync(Wrap("using var cts = new CancellationTokenSource(5000);"), "coarse_timers.per_operation_timeouts = false");

    [Fact]
    public Task Static_constructor_and_Main_run_once()
    {
        const string source = """
            using System.Threading;

            class Program
            {
                static readonly CancellationToken s_token;

                static Program()
                {
                    using var cts = new CancellationTokenSource(1000);
                    s_token = cts.Token;
                }

                static void Main()
                {
                    using var cts = new CancellationTokenSource(1000);
                    cts.CancelAfter(5);
                }
            }
            """;
        return new Verify { TestCode = source }.AsConsoleApplication().RunAsync();
    }

    // CancelAfter on a source created with a TimeProvider arms the provider's timer (a fake one in tests, CoarseTimeProvider
    // in production), as the calls that take a provider do, which are never flagged.
    [Theory]
    [InlineData("using var cts = new CancellationTokenSource(Timeout.InfiniteTimeSpan, _time); cts.CancelAfter(5000);")]
    [InlineData("using var cts = fast ? new CancellationTokenSource(Timeout.InfiniteTimeSpan, _time) : new CancellationTokenSource(); cts.CancelAfter(5000);")]
    [InlineData("CancellationTokenSource cts = null; cts ??= new CancellationTokenSource(TimeSpan.FromSeconds(1), _time); cts.CancelAfter(5000); cts.Dispose();")]
    [InlineData("_reused.CancelAfter(5000);")]
    [InlineData("_reused?.CancelAfter(TimeSpan.FromSeconds(5));")]
    [InlineData("this.Assigned.CancelAfter(5000);")]
    public Task CancelAfter_on_a_source_created_with_a_TimeProvider_is_not_flagged(string body) =>
        Verify.VerifyAsync(WrapWithProvider(body));

    [Theory]
    [InlineData("using var cts = new CancellationTokenSource(); {|#0:cts.CancelAfter(5000)|};", "per-operation timeout")]
    [InlineData("using var cts = CancellationTokenSource.CreateLinkedTokenSource(_reused.Token); {|#0:cts.CancelAfter(5000)|};", "per-operation timeout")]
    [InlineData("{|#0:_plain.CancelAfter(5000)|};", "reused source re-armed per call")]
    public Task CancelAfter_on_a_source_without_a_TimeProvider_next_to_one_is_still_flagged(string body, string reason) =>
        Verify.VerifyAsync(WrapWithProvider(body), Expected("CancelAfter", reason));

    private static string WrapWithProvider(string body) => $$"""
        using System;
        using System.Threading;

        class C
        {
            private readonly TimeProvider _time;
            private readonly CancellationTokenSource _reused;
            private readonly CancellationTokenSource _plain = new();

            public C(TimeProvider time)
            {
                _time = time;
                _reused = new CancellationTokenSource(Timeout.InfiniteTimeSpan, time);
                this.Assigned = new CancellationTokenSource(Timeout.InfiniteTimeSpan, time);
            }

            private CancellationTokenSource Assigned { get; }

            void M(bool fast)
            {
                {{body}}
            }
        }
        """;

    [Fact]
    public Task A_user_type_named_CancellationTokenSource_is_not_flagged() =>
        Verify.VerifyAsync("""
            namespace Mine
            {
                class CancellationTokenSource { public CancellationTokenSource(int ms) { } public void CancelAfter(int ms) { } }

                class C
                {
                    void M()
                    {
                        var cts = new CancellationTokenSource(5);
                        cts.CancelAfter(5);
                    }
                }
            }
            """);

    private static string Wrap(string body) => $$"""
        using System;
        using System.Threading;

        class C
        {
            static CancellationTokenSource s_field = new();

            void M()
            {
                {{body}}
            }

            static void Use(CancellationTokenSource source) { }
        }
        """;
}
