using System.Threading.Tasks;
using Xunit;
using Verify = CoarseTimers.Analyzers.Tests.CodeFixes.FixTest<
    CoarseTimers.Analyzers.Rules.TimeoutCancellationTokenSourceAnalyzer,
    CoarseTimers.CodeFixes.Fixes.TimeoutCancellationTokenSourceCodeFixProvider>;

namespace CoarseTimers.Analyzers.Tests.Rules;

/// <summary>
/// Shapes where a rewrite would compile differently or behave differently, found by trying the fixes on code written to
/// break them: each is left alone, or gets the replacement that keeps its behaviour.
/// </summary>
public partial class TimeoutCancellationTokenSourceTests
{
    [Fact]
    public Task An_explicit_interface_property_is_not_retyped() => Verify.VerifyNotOfferedAsync(
        """
        using System.Threading;

        interface IHolder
        {
            CancellationTokenSource Source { get; set; }
        }

        class Holder : IHolder
        {
            CancellationTokenSource IHolder.Source { get; set; } = {|CT0002:new CancellationTokenSource(100)|};
        }
        """);

    [Fact]
    public Task A_token_kept_in_a_primary_constructor_parameter_keeps_its_source() => Verify.VerifyNotOfferedAsync(
        """
        using System;
        using System.Threading;

        sealed class Work(CancellationToken token)
        {
            public void Arm(TimeSpan timeout)
            {
                if (token == CancellationToken.None)
                {
                    token = {|CT0002:new CancellationTokenSource(timeout)|}.Token;
                }

                Run(token);
            }

            // Another member compares the object's token with another: a shared token would equal another object's.
            public bool Same(CancellationToken other) => token == other;

            static void Run(CancellationToken token) { }
        }
        """);

    [Theory]
    [InlineData("return Equals(first, second);")]
    [InlineData("return EqualityComparer<CancellationToken>.Default.Equals(first, second);")]
    [InlineData("return new HashSet<CancellationToken> { first }.Add(second);")]
    [InlineData("return Same(first, second);")]
    public Task A_kept_token_compared_or_stored_through_a_call_keeps_its_source(string comparison) => Verify.VerifyNotOfferedAsync(
        $$"""
        using System.Collections.Generic;
        using System.Threading;

        class C
        {
            static bool Same<T>(T a, T b) => EqualityComparer<T>.Default.Equals(a, b);

            bool M()
            {
                var first = {|CT0002:new CancellationTokenSource(100)|}.Token;
                var second = {|CT0002:new CancellationTokenSource(100)|}.Token;
                {{comparison}}
            }
        }
        """);

    [Fact]
    public Task A_token_handed_to_token_parameters_one_by_one_or_as_params_is_still_rewritten() => Verify.VerifyAsync(
        """
        using System.Threading;

        class C
        {
            static void Wait(CancellationToken token) => token.WaitHandle.WaitOne(0);

            void M(CancellationToken outer)
            {
                var timeout = {|CT0002:new CancellationTokenSource(100)|}.Token;
                Wait(timeout);
                Wait(token: timeout);
                using var linked = CancellationTokenSource.CreateLinkedTokenSource(outer, timeout, outer);
                Wait(linked.Token);
            }
        }
        """,
        """
        using System.Threading;
        using CoarseTimers;

        class C
        {
            static void Wait(CancellationToken token) => token.WaitHandle.WaitOne(0);

            void M(CancellationToken outer)
            {
                var timeout = CoarseTimeout.After(100);
                Wait(timeout);
                Wait(token: timeout);
                using var linked = CancellationTokenSource.CreateLinkedTokenSource(outer, timeout, outer);
                Wait(linked.Token);
            }
        }
        """);

    [Fact]
    public Task A_source_whose_token_goes_to_a_generic_parameter_becomes_a_coarse_source() => Verify.VerifyAsync(
        """
        using System.Collections.Generic;
        using System.Threading;

        class C
        {
            readonly List<CancellationToken> _seen = new();

            void M()
            {
                using var cts = {|CT0002:new CancellationTokenSource(100)|};
                _seen.Add(cts.Token);
            }
        }
        """,
        """
        using System.Collections.Generic;
        using System.Threading;
        using CoarseTimers;

        class C
        {
            readonly List<CancellationToken> _seen = new();

            void M()
            {
                using var cts = new CoarseCancellationTokenSource(100);
                _seen.Add(cts.Token);
            }
        }
        """);

    [Fact]
    public async Task Tokens_compared_in_a_later_top_level_statement_keep_their_sources()
    {
        var source = """
            using System;
            using System.Threading;

            var token = {|CT0002:new CancellationTokenSource(1000)|}.Token;
            var other = {|CT0002:new CancellationTokenSource(1000)|}.Token;
            Console.WriteLine(token == other);
            """;
        var test = Verify.Create(source, source);
        test.TestState.OutputKind = Microsoft.CodeAnalysis.OutputKind.ConsoleApplication;
        await test.RunAsync();
    }

    [Fact]
    public async Task A_top_level_token_only_passed_on_is_rewritten()
    {
        var test = Verify.Create(
            """
            using System.Threading;

            var token = {|CT0002:new CancellationTokenSource(1000)|}.Token;
            Wait(token);

            static void Wait(CancellationToken token) => token.WaitHandle.WaitOne(0);
            """,
            """
            using System.Threading;
            using CoarseTimers;

            var token = CoarseTimeout.After(1000);
            Wait(token);

            static void Wait(CancellationToken token) => token.WaitHandle.WaitOne(0);
            """);
        test.TestState.OutputKind = Microsoft.CodeAnalysis.OutputKind.ConsoleApplication;
        await test.RunAsync();
    }

    [Fact]
    public Task A_source_disposed_before_its_token_is_read_keeps_a_source_that_throws() => Verify.VerifyAsync(
        """
        using System.IO;
        using System.Threading;
        using System.Threading.Tasks;

        class C
        {
            async Task M(Stream stream, byte[] buffer)
            {
                var cts = {|CT0002:new CancellationTokenSource(100)|};
                cts.Dispose();
                await stream.ReadAsync(buffer, 0, 1, cts.Token);
            }
        }
        """,
        """
        using System.IO;
        using System.Threading;
        using System.Threading.Tasks;
        using CoarseTimers;

        class C
        {
            async Task M(Stream stream, byte[] buffer)
            {
                var cts = new CoarseCancellationTokenSource(100);
                cts.Dispose();
                await stream.ReadAsync(buffer, 0, 1, cts.Token);
            }
        }
        """);

    [Fact]
    public Task A_source_disposed_in_a_loop_that_reads_its_token_again_keeps_a_source_that_throws() => Verify.VerifyAsync(
        """
        using System.IO;
        using System.Threading;
        using System.Threading.Tasks;

        class C
        {
            async Task M(Stream stream, byte[] buffer)
            {
                var cts = {|CT0002:new CancellationTokenSource(100)|};
                for (var i = 0; i < 2; i++)
                {
                    await stream.ReadAsync(buffer, 0, 1, cts.Token);
                    cts.Dispose();
                }
            }
        }
        """,
        """
        using System.IO;
        using System.Threading;
        using System.Threading.Tasks;
        using CoarseTimers;

        class C
        {
            async Task M(Stream stream, byte[] buffer)
            {
                var cts = new CoarseCancellationTokenSource(100);
                for (var i = 0; i < 2; i++)
                {
                    await stream.ReadAsync(buffer, 0, 1, cts.Token);
                    cts.Dispose();
                }
            }
        }
        """);

    [Fact]
    public Task A_source_created_and_disposed_in_each_turn_of_a_loop_becomes_a_shared_timeout_token() => Verify.VerifyAsync(
        """
        using System.IO;
        using System.Threading;
        using System.Threading.Tasks;

        class C
        {
            async Task M(Stream stream, byte[] buffer)
            {
                for (var i = 0; i < 2; i++)
                {
                    var cts = {|CT0002:new CancellationTokenSource(100)|};
                    await stream.ReadAsync(buffer, 0, 1, cts.Token);
                    cts.Dispose();
                }
            }
        }
        """,
        """
        using System.IO;
        using System.Threading;
        using System.Threading.Tasks;
        using CoarseTimers;

        class C
        {
            async Task M(Stream stream, byte[] buffer)
            {
                for (var i = 0; i < 2; i++)
                {
                    var ctsToken = CoarseTimeout.After(100);
                    await stream.ReadAsync(buffer, 0, 1, ctsToken);
                }
            }
        }
        """);

    /// <summary>
    /// Where every target's runtime declares its own <c>TryReset</c> (the net8.0 build, which these tests reference), a
    /// source that is reset becomes a coarse source, and <c>TryReset</c> binds to the coarse one, which disarms its timeout.
    /// </summary>
    [Fact]
    public Task A_source_reset_with_try_reset_is_rewritten_where_the_runtime_has_its_own() => Verify.VerifyAsync(
        """
        using System.Threading;

        class C
        {
            private CancellationTokenSource _cts = new();

            bool M()
            {
                if (!_cts.TryReset())
                {
                    _cts.Dispose();
                    _cts = new CancellationTokenSource();
                }

                {|CT0002:_cts.CancelAfter(100)|};
                return !_cts.IsCancellationRequested;
            }
        }
        """,
        """
        using System.Threading;
        using CoarseTimers;

        class C
        {
            private CoarseCancellationTokenSource _cts = new CoarseCancellationTokenSource();

            bool M()
            {
                if (!_cts.TryReset())
                {
                    _cts.Dispose();
                    _cts = new CoarseCancellationTokenSource();
                }

                _cts.CancelAfter(100);
                return !_cts.IsCancellationRequested;
            }
        }
        """);

    /// <summary>
    /// The runtime's netstandard2.0 build, which net6.0 and net7.0 targets get, has no <c>TryReset</c> of its own: the
    /// call would bind to the BCL's and leave the coarse timeout armed, so a source that is reset keeps the BCL type
    /// there (and wherever any target of the file gets that build: <c>LinkedFileTests</c>).
    /// </summary>
    [Fact]
    public async Task A_source_reset_with_try_reset_is_not_rewritten_where_the_runtime_lacks_its_own_try_reset()
    {
        const string RuntimeWithoutTryReset = """
            namespace CoarseTimers
            {
                public class CoarseCancellationTokenSource : System.Threading.CancellationTokenSource
                {
                    public CoarseCancellationTokenSource() { }
                    public CoarseCancellationTokenSource(int millisecondsDelay) { }
                    public new void CancelAfter(int millisecondsDelay) { }
                }
            }
            """;
        const string Source = """
            using System.Threading;

            class C
            {
                bool M()
                {
                    var cts = new CancellationTokenSource();
                    {|CT0002:cts.CancelAfter(50)|};
                    return cts.TryReset();
                }
            }
            """;
        var test = Verify.Create(Source, Source, referenceRuntime: false);
        test.TestState.Sources.Add(("Runtime.cs", RuntimeWithoutTryReset));
        test.FixedState.Sources.Add(("Runtime.cs", RuntimeWithoutTryReset));
        await test.RunAsync();
    }

    [Fact]
    public Task The_comments_of_a_removed_arming_statement_stay() => Verify.VerifyAsync(
        """
        using System.Threading;
        using System.Threading.Tasks;

        class C
        {
            async Task M(CancellationToken token)
            {
                using var cts = CancellationTokenSource.CreateLinkedTokenSource(token);
                // The peer answers within 100 ms or never.
                {|CT0002:cts.CancelAfter(100)|}; // 100 ms
                await Task.Delay(1, cts.Token);
            }
        }
        """,
        """
        using System.Threading;
        using System.Threading.Tasks;
        using CoarseTimers;

        class C
        {
            async Task M(CancellationToken token)
            {
                using var cts = CoarseTimeout.CreateLinkedTokenSource(token, 100);
                // The peer answers within 100 ms or never.
                // 100 ms
                await Task.Delay(1, cts.Token);
            }
        }
        """);

    [Fact]
    public Task What_the_user_wrote_around_a_removed_dispose_or_using_stays() => Verify.VerifyAsync(
        """
        using System;
        using System.IO;
        using System.Threading;
        using System.Threading.Tasks;

        class C
        {
            async Task M(Stream s, byte[] b)
            {
                var c1 = {|CT0002:new CancellationTokenSource(/* one second */ 1000)|};
                await s.ReadAsync(b, 0, 1, c1.Token);
        #if TRACE_READS
                Console.WriteLine("read");
        #endif
                c1.Dispose();

                var c2 = {|CT0002:new CancellationTokenSource(1000)|};
                try
                {
                    await s.ReadAsync(b, 0, 1, c2.Token);
                }
                finally
                {
                    // Always release the timer.
                    c2.Dispose();
                }

                using (var c3 = {|CT0002:new CancellationTokenSource(1000)|}) // bounded read
                {
                    await s.ReadAsync(b, 0, 1, c3.Token);
        #if TRACE_READS
                    Console.WriteLine("read");
        #endif
                }
            }
        }
        """,
        """
        using System;
        using System.IO;
        using System.Threading;
        using System.Threading.Tasks;
        using CoarseTimers;

        class C
        {
            async Task M(Stream s, byte[] b)
            {
                var c1Token = CoarseTimeout.After(/* one second */ 1000);
                await s.ReadAsync(b, 0, 1, c1Token);
        #if TRACE_READS
                Console.WriteLine("read");
        #endif

                var c2Token = CoarseTimeout.After(1000);
                try
                {
                    await s.ReadAsync(b, 0, 1, c2Token);
                }
                finally
                {
                    // Always release the timer.
                }

                {
                    // bounded read
                    var c3Token = CoarseTimeout.After(1000);
                    await s.ReadAsync(b, 0, 1, c3Token);
        #if TRACE_READS
                    Console.WriteLine("read");
        #endif
                }
            }
        }
        """);

    [Fact]
    public Task A_source_whose_type_is_asked_or_printed_keeps_the_BCL_type() => Verify.VerifyNotOfferedAsync(
        """
        using System;
        using System.Threading;

        class C
        {
            void M()
            {
                var typed = {|CT0002:new CancellationTokenSource(1000)|};
                Console.WriteLine(typed.GetType() == typeof(CancellationTokenSource));
                var printed = {|CT0002:new CancellationTokenSource(1000)|};
                Console.WriteLine(printed.ToString());
            }
        }
        """);

    [Fact]
    public Task A_field_read_through_another_instantiation_of_its_generic_type_keeps_the_BCL_type() => Verify.VerifyNotOfferedAsync(
        """
        using System.Threading;

        class Box<T>
        {
            private CancellationTokenSource? _source;

            public void Arm() => _source = {|CT0002:new CancellationTokenSource(1000)|};

            public static CancellationTokenSource? Peek(Box<int> other) => other._source;
        }
        """);

    [Fact]
    public Task A_source_disposed_before_a_goto_jumps_back_to_its_token_keeps_its_dispose() => Verify.VerifyAsync(
        """
        using System.Threading;
        using System.Threading.Tasks;

        class C
        {
            async Task M(SemaphoreSlim gate)
            {
                var round = 0;
                var cts = {|CT0002:new CancellationTokenSource(1000)|};
            again:
                await gate.WaitAsync(10, cts.Token);
                cts.Dispose();
                if (++round < 2) goto again;
            }
        }
        """,
        """
        using System.Threading;
        using System.Threading.Tasks;
        using CoarseTimers;

        class C
        {
            async Task M(SemaphoreSlim gate)
            {
                var round = 0;
                var cts = new CoarseCancellationTokenSource(1000);
            again:
                await gate.WaitAsync(10, cts.Token);
                cts.Dispose();
                if (++round < 2) goto again;
            }
        }
        """);

    [Fact]
    public Task A_site_inside_the_timeout_argument_keeps_its_own_rewrite() => Verify.VerifyAsync(
        """
        using System;
        using System.Threading;
        using System.Threading.Tasks;

        class C
        {
            private CancellationTokenSource? _inner;

            static int Compute(Func<int> f) => f();

            async Task M(SemaphoreSlim gate)
            {
                var cts = {|CT0002:new CancellationTokenSource(Compute(() => { _inner = {|CT0002:new CancellationTokenSource(50)|}; return 1000; }))|};
                await gate.WaitAsync(10, cts.Token);
            }
        }
        """,
        """
        using System;
        using System.Threading;
        using System.Threading.Tasks;
        using CoarseTimers;

        class C
        {
            private CoarseCancellationTokenSource? _inner;

            static int Compute(Func<int> f) => f();

            async Task M(SemaphoreSlim gate)
            {
                var ctsToken = CoarseTimeout.After(Compute(() => { _inner = new CoarseCancellationTokenSource(50); return 1000; }));
                await gate.WaitAsync(10, ctsToken);
            }
        }
        """);
}
