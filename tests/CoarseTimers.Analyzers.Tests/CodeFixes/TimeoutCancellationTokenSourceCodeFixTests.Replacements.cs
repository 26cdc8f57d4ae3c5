using System.Threading.Tasks;
using Xunit;
using Verify = CoarseTimers.Analyzers.Tests.CodeFixes.FixTest<
    CoarseTimers.Analyzers.Rules.TimeoutCancellationTokenSourceAnalyzer,
    CoarseTimers.CodeFixes.Fixes.TimeoutCancellationTokenSourceCodeFixProvider>;

namespace CoarseTimers.Analyzers.Tests.Rules;

/// <summary>
/// Which replacement each shape gets: the shared timeout token, the linked timeout, the coarse source, or nothing (a
/// coarse source that could be reached through a <c>CancellationTokenSource</c> reference would run the BCL's
/// non-virtual <c>CancelAfter</c>/<c>TryReset</c> while its coarse timeout stays armed).
/// </summary>
public partial class TimeoutCancellationTokenSourceTests
{
    [Fact]
    public Task A_source_used_only_for_its_token_becomes_a_shared_timeout_token() => Verify.VerifyAsync(
        """
        using System;
        using System.IO;
        using System.Threading;
        using System.Threading.Tasks;

        class C
        {
            async Task M(Stream stream, byte[] buffer, TimeSpan timeout, CancellationToken sourceToken)
            {
                using var cts = {|CT0002:new CancellationTokenSource(timeout)|};
                await stream.ReadAsync(buffer, 0, buffer.Length, cts.Token);
                await stream.FlushAsync(cts.Token);

                using (var requestCts = {|CT0002:new CancellationTokenSource(100)|})
                {
                    await Task.Run(() => { }, requestCts.Token);
                }

                var source = {|CT0002:new CancellationTokenSource(millisecondsDelay: 50)|};
                try
                {
                    await stream.WriteAsync(buffer, 0, 1, source.Token);
                }
                finally
                {
                    source.Dispose();
                }

                await stream.FlushAsync({|CT0002:new CancellationTokenSource(25)|}.Token);
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
            async Task M(Stream stream, byte[] buffer, TimeSpan timeout, CancellationToken sourceToken)
            {
                var ctsToken = CoarseTimeout.After(timeout);
                await stream.ReadAsync(buffer, 0, buffer.Length, ctsToken);
                await stream.FlushAsync(ctsToken);

                {
                    var requestCtsToken = CoarseTimeout.After(100);
                    await Task.Run(() => { }, requestCtsToken);
                }

                var sourceToken2 = CoarseTimeout.After(50);
                await stream.WriteAsync(buffer, 0, 1, sourceToken2);

                await stream.FlushAsync(CoarseTimeout.After(25));
            }
        }
        """);

    [Fact]
    public Task A_dropped_source_whose_token_is_kept_in_a_local_or_parameter_becomes_a_shared_timeout_token() => Verify.VerifyAsync(
        """
        using System.IO;
        using System.Threading;
        using System.Threading.Tasks;

        class C
        {
            async Task<int> M(Stream stream, byte[] buffer, int timeout, CancellationToken cancellationToken = default)
            {
                if (cancellationToken == CancellationToken.None)
                    cancellationToken = {|CT0002:new CancellationTokenSource(timeout)|}.Token;
                var peek = {|CT0002:new CancellationTokenSource(50)|}.Token;
                await stream.ReadAsync(buffer, 0, 1, peek);
                return await stream.ReadAsync(buffer, 0, buffer.Length, cancellationToken);
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
            async Task<int> M(Stream stream, byte[] buffer, int timeout, CancellationToken cancellationToken = default)
            {
                if (cancellationToken == CancellationToken.None)
                    cancellationToken = CoarseTimeout.After(timeout);
                var peek = CoarseTimeout.After(50);
                await stream.ReadAsync(buffer, 0, 1, peek);
                return await stream.ReadAsync(buffer, 0, buffer.Length, cancellationToken);
            }
        }
        """);

    [Fact]
    public Task A_kept_token_that_is_compared_or_stored_later_keeps_its_source()
    {
        var test = Verify.Create(
        """
        using System;
        using System.IO;
        using System.Threading;
        using System.Threading.Tasks;

        class C
        {
            CancellationToken _last;

            async Task M(Stream stream, byte[] buffer)
            {
                // Compared later: two shared tokens of one bucket are equal, so it keeps its own source. The token that is
                // only passed on is rewritten (the comparison reads the other one).
                var readTimeout = {|CT0002:new CancellationTokenSource(5000)|}.Token;
                var writeTimeout = {|CT0002:new CancellationTokenSource(5000)|}.Token;
                try
                {
                    await stream.ReadAsync(buffer, 0, 1, readTimeout);
                    await stream.WriteAsync(buffer, 0, 1, writeTimeout);
                }
                catch (OperationCanceledException e) when (e.CancellationToken == readTimeout)
                {
                    throw new TimeoutException("read");
                }

                // Stored: no rewrite.
                var kept = {|CT0002:new CancellationTokenSource(100)|}.Token;
                _last = kept;
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
            CancellationToken _last;

            async Task M(Stream stream, byte[] buffer)
            {
                // Compared later: two shared tokens of one bucket are equal, so it keeps its own source. The token that is
                // only passed on is rewritten (the comparison reads the other one).
                var readTimeout = {|CT0002:new CancellationTokenSource(5000)|}.Token;
                var writeTimeout = CoarseTimeout.After(5000);
                try
                {
                    await stream.ReadAsync(buffer, 0, 1, readTimeout);
                    await stream.WriteAsync(buffer, 0, 1, writeTimeout);
                }
                catch (OperationCanceledException e) when (e.CancellationToken == readTimeout)
                {
                    throw new TimeoutException("read");
                }

                // Stored: no rewrite.
                var kept = {|CT0002:new CancellationTokenSource(100)|}.Token;
                _last = kept;
            }
        }
        """);

        // The two sites left are still reported in the fixed code: read them from its markup.
        test.FixedState.MarkupHandling = Microsoft.CodeAnalysis.Testing.MarkupMode.Allow;
        return test.RunAsync();
    }

    // The callees of the test below: Send compares the token it receives with another one, Read only hands its token on.
    private const string TokenCallees = """
            static async Task Send(Stream stream, byte[] buffer, CancellationToken connectTimeout, CancellationToken sendTimeout)
            {
                try
                {
                    await stream.WriteAsync(buffer, 0, 1, sendTimeout);
                }
                catch (OperationCanceledException e) when (e.CancellationToken == connectTimeout)
                {
                    Console.WriteLine("connect timed out");
                }
            }

            static Task Read(Stream stream, byte[] buffer, CancellationToken token)
            {
                token.ThrowIfCancellationRequested();
                return Pass(stream, buffer, token);
            }

            static Task Pass(Stream stream, byte[] buffer, CancellationToken token) => stream.ReadAsync(buffer, 0, 1, token);
        """;

    [Fact]
    public Task A_token_handed_to_an_own_method_that_tells_tokens_apart_keeps_its_source()
    {
        // Found by a probe: two shared tokens of one bucket are equal, so Send would take the connect branch where the
        // private tokens took the send branch.
        var test = Verify.Create(
        $$"""
        using System;
        using System.IO;
        using System.Threading;
        using System.Threading.Tasks;

        class C
        {
            async Task M(Stream stream, byte[] buffer)
            {
                var connect = {|CT0002:new CancellationTokenSource(300)|}.Token;
                var send = {|CT0002:new CancellationTokenSource(300)|}.Token;
                await Send(stream, buffer, connect, send);
                await Read(stream, buffer, {|CT0002:new CancellationTokenSource(300)|}.Token);
            }

        {{TokenCallees}}
        }
        """,
        $$"""
        using System;
        using System.IO;
        using System.Threading;
        using System.Threading.Tasks;
        using CoarseTimers;

        class C
        {
            async Task M(Stream stream, byte[] buffer)
            {
                var connect = {|CT0002:new CancellationTokenSource(300)|}.Token;
                var send = CoarseTimeout.After(300);
                await Send(stream, buffer, connect, send);
                await Read(stream, buffer, CoarseTimeout.After(300));
            }

        {{TokenCallees}}
        }
        """);
        test.FixedState.MarkupHandling = Microsoft.CodeAnalysis.Testing.MarkupMode.Allow;
        return test.RunAsync();
    }

    [Fact]
    public Task A_kept_token_read_in_code_an_if_leaves_out_keeps_its_source() => Verify.VerifyNotOfferedAsync(
        """
        using System.IO;
        using System.Threading;
        using System.Threading.Tasks;

        class C
        {
            static CancellationToken s_last;

            async Task<bool> M(Stream stream, byte[] buffer, CancellationToken token = default)
            {
                if (token == CancellationToken.None)
                    token = {|CT0002:new CancellationTokenSource(1000)|}.Token;
                await stream.ReadAsync(buffer, 0, 1, token);
        #if OTHER_TARGET
                var same = token == s_last; // another target compares it: two shared tokens of one bucket are equal
                s_last = token;
                return same;
        #else
                return false;
        #endif
            }
        }
        """);

    [Fact]
    public Task A_token_handed_to_an_own_method_that_reads_it_in_code_an_if_leaves_out_keeps_its_source() => Verify.VerifyNotOfferedAsync(
        """
        using System.IO;
        using System.Threading;
        using System.Threading.Tasks;

        class C
        {
            static CancellationToken s_last;

            Task M(Stream stream, byte[] buffer) => Read(stream, buffer, {|CT0002:new CancellationTokenSource(1000)|}.Token);

            static Task Read(Stream stream, byte[] buffer, CancellationToken token)
            {
        #if OTHER_TARGET
                s_last = token; // another target keeps it
        #endif
                return stream.ReadAsync(buffer, 0, 1, token);
            }
        }
        """);

    [Fact]
    public Task No_rewrite_touches_a_statement_or_declaration_that_another_configuration_compiles_differently()
    {
        var test = Verify.Create(
        """
        using System.Threading;
        using System.Threading.Tasks;

        class C
        {
            private readonly CancellationTokenSource _stopping = new();
            private CancellationTokenSource _field =
        #if DEBUG
                {|CT0002:new CancellationTokenSource(1000)|};
        #else
                new CancellationTokenSource();
        #endif

            async Task M(SemaphoreSlim gate, CancellationToken token)
            {
                // A timeout only one configuration arms: moving it into the creation would arm it in every one.
                using var linked = CancellationTokenSource.CreateLinkedTokenSource(token);
        #if DEBUG
                {|CT0002:linked.CancelAfter(100)|};
        #endif
                await gate.WaitAsync(linked.Token);

                // A creation another configuration writes differently.
                using var cts =
        #if DEBUG
                    {|CT0002:new CancellationTokenSource(1000)|};
        #else
                    CancellationTokenSource.CreateLinkedTokenSource(_stopping.Token);
        #endif
                await gate.WaitAsync(cts.Token);
                _field.Cancel();
            }

        #if DEBUG
            // A whole member one configuration compiles: all or nothing, so it is fixed.
            async Task N(SemaphoreSlim gate)
            {
                using var whole = {|CT0002:new CancellationTokenSource(1000)|};
                await gate.WaitAsync(whole.Token);
            }
        #endif
        }
        """,
        """
        using System.Threading;
        using System.Threading.Tasks;
        using CoarseTimers;

        class C
        {
            private readonly CancellationTokenSource _stopping = new();
            private CancellationTokenSource _field =
        #if DEBUG
                {|CT0002:new CancellationTokenSource(1000)|};
        #else
                new CancellationTokenSource();
        #endif

            async Task M(SemaphoreSlim gate, CancellationToken token)
            {
                // A timeout only one configuration arms: moving it into the creation would arm it in every one.
                using var linked = CancellationTokenSource.CreateLinkedTokenSource(token);
        #if DEBUG
                {|CT0002:linked.CancelAfter(100)|};
        #endif
                await gate.WaitAsync(linked.Token);

                // A creation another configuration writes differently.
                using var cts =
        #if DEBUG
                    {|CT0002:new CancellationTokenSource(1000)|};
        #else
                    CancellationTokenSource.CreateLinkedTokenSource(_stopping.Token);
        #endif
                await gate.WaitAsync(cts.Token);
                _field.Cancel();
            }

        #if DEBUG
            // A whole member one configuration compiles: all or nothing, so it is fixed.
            async Task N(SemaphoreSlim gate)
            {
                var wholeToken = CoarseTimeout.After(1000);
                await gate.WaitAsync(wholeToken);
            }
        #endif
        }
        """);
        test.TestState.MarkupHandling = Microsoft.CodeAnalysis.Testing.MarkupMode.Allow;
        test.FixedState.MarkupHandling = Microsoft.CodeAnalysis.Testing.MarkupMode.Allow;
        test.SolutionTransforms.Add((solution, projectId) =>
        {
            var project = solution.GetProject(projectId)!;
            var options = (Microsoft.CodeAnalysis.CSharp.CSharpParseOptions)project.ParseOptions!;
            return solution.WithProjectParseOptions(projectId, options.WithPreprocessorSymbols("DEBUG"));
        });
        return test.RunAsync();
    }

    [Fact]
    public Task The_token_local_takes_no_name_that_code_an_if_leaves_out_declares() => Verify.VerifyAsync(
        """
        using System;
        using System.IO;
        using System.Threading;
        using System.Threading.Tasks;

        class C
        {
            async Task<int> M(Stream stream, byte[] buffer)
            {
                using var cts = {|CT0002:new CancellationTokenSource(1000)|};
                var n = await stream.ReadAsync(buffer, 0, buffer.Length, cts.Token);
        #if TRACE_TOKENS
                var ctsToken = "another configuration's trace";
                Console.WriteLine(ctsToken);
        #endif
                return n;
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
            async Task<int> M(Stream stream, byte[] buffer)
            {
                var ctsToken2 = CoarseTimeout.After(1000);
                var n = await stream.ReadAsync(buffer, 0, buffer.Length, ctsToken2);
        #if TRACE_TOKENS
                var ctsToken = "another configuration's trace";
                Console.WriteLine(ctsToken);
        #endif
                return n;
            }
        }
        """);

    [Fact]
    public Task A_source_chosen_by_a_condition_is_flagged_but_not_rewritten() => Verify.VerifyNotOfferedAsync(
        """
        using System;
        using System.Threading;
        using System.Threading.Tasks;

        class C
        {
            async Task M(TimeSpan? timeout)
            {
                using var cts = timeout.HasValue ? {|CT0002:new CancellationTokenSource(timeout.Value)|} : new CancellationTokenSource();
                await Task.Delay(10, cts.Token);
            }
        }
        """);

    [Theory]
    [InlineData("_ = Background(cts.Token);")] // fire-and-forget: still running after the dispose
    [InlineData("var pending = Background(cts.Token); await pending;")] // a task kept, awaited later
    [InlineData("var request = new Request(cts.Token); await Background(request.Token);")] // stored by a constructor
    [InlineData("Listen(cts.Token); await Task.Delay(10);")] // a synchronous call that may register on it
    [InlineData("await Task.Run(async () => await Background(cts.Token));")] // awaited inside a lambda
    [InlineData("await Task.WhenAll(Background(cts.Token), Background(cts.Token));")] // awaited through another call
    [InlineData("var linked = CancellationTokenSource.CreateLinkedTokenSource(cts.Token); await Background(linked.Token);")] // a linked source never disposed
    [InlineData("await Background(cts.Token);")] // awaited, but the application's own method may start work with it and return
    [InlineData("var kept = await Task.FromResult(cts.Token); await Background(kept);")] // awaited, and handed back
    [InlineData("using var linked = CancellationTokenSource.CreateLinkedTokenSource(cts.Token); await Task.Delay(10, linked.Token); cts.Dispose(); await Task.Delay(Timeout.Infinite, linked.Token);")] // disposed early, before the linked source
    [InlineData("using var stop = CancellationToken.None.Register(() => cts.Dispose()); await Task.Delay(1000, cts.Token);")] // disposed by a callback, maybe while the delay waits
    [InlineData("using var stop = CancellationToken.None.Register(() => { cts.Dispose(); }); await Task.Delay(1000, cts.Token);")]
    public Task A_disposed_source_whose_token_may_outlive_the_dispose_keeps_a_source_of_its_own(string body) => Verify.VerifyAsync(
        $$"""
        using System.Threading;
        using System.Threading.Tasks;

        class C
        {
            async Task M()
            {
                using var cts = {|CT0002:new CancellationTokenSource(100)|};
                {{body}}
            }

            static Task Background(CancellationToken token) => Task.Delay(Timeout.Infinite, token);

            static void Listen(CancellationToken token) => token.Register(() => { });

            sealed record Request(CancellationToken Token);
        }
        """,
        $$"""
        using System.Threading;
        using System.Threading.Tasks;
        using CoarseTimers;

        class C
        {
            async Task M()
            {
                using var cts = new CoarseCancellationTokenSource(100);
                {{body}}
            }

            static Task Background(CancellationToken token) => Task.Delay(Timeout.Infinite, token);

            static void Listen(CancellationToken token) => token.Register(() => { });

            sealed record Request(CancellationToken Token);
        }
        """);

    [Fact]
    public Task A_token_linked_into_a_source_disposed_first_becomes_a_shared_timeout_token() => Verify.VerifyAsync(
        """
        using System.Threading;
        using System.Threading.Tasks;

        class C
        {
            async Task<bool> M(Task work, CancellationToken stopping)
            {
                using var timeout = {|CT0002:new CancellationTokenSource(100)|};
                using var linked = CancellationTokenSource.CreateLinkedTokenSource(stopping, timeout.Token);
                var winner = await Task.WhenAny(work, Task.Delay(Timeout.Infinite, linked.Token));
                return winner == work;
            }
        }
        """,
        """
        using System.Threading;
        using System.Threading.Tasks;
        using CoarseTimers;

        class C
        {
            async Task<bool> M(Task work, CancellationToken stopping)
            {
                var timeoutToken = CoarseTimeout.After(100);
                using var linked = CancellationTokenSource.CreateLinkedTokenSource(stopping, timeoutToken);
                var winner = await Task.WhenAny(work, Task.Delay(Timeout.Infinite, linked.Token));
                return winner == work;
            }
        }
        """);

    [Fact]
    public Task A_source_never_disposed_may_hand_its_token_anywhere_it_fires_as_the_shared_one() => Verify.VerifyAsync(
        """
        using System.Threading;
        using System.Threading.Tasks;

        class C
        {
            void M()
            {
                var cts = {|CT0002:new CancellationTokenSource(100)|};
                _ = Background(cts.Token);
            }

            static Task Background(CancellationToken token) => Task.Delay(Timeout.Infinite, token);
        }
        """,
        """
        using System.Threading;
        using System.Threading.Tasks;
        using CoarseTimers;

        class C
        {
            void M()
            {
                var ctsToken = CoarseTimeout.After(100);
                _ = Background(ctsToken);
            }

            static Task Background(CancellationToken token) => Task.Delay(Timeout.Infinite, token);
        }
        """);

    [Theory]
    [InlineData( // the finally held only the Dispose: the try becomes its body
        "try { await Task.Delay(1, cts.Token); Work(); } finally { cts.Dispose(); }",
        "await Task.Delay(1, ctsToken); Work();")]
    [InlineData( // catch clauses stay, the empty finally goes
        "try { await Task.Delay(1, cts.Token); } catch (OperationCanceledException) { Work(); } finally { cts.Dispose(); }",
        "try { await Task.Delay(1, ctsToken); } catch (OperationCanceledException) { Work(); }")]
    [InlineData( // the body declares a local: it stays a block, so the name cannot clash with one declared after it
        "try { var done = await Task.Run(() => 1, cts.Token); } finally { cts.Dispose(); } var later = 1;",
        "{ var done = await Task.Run(() => 1, ctsToken); } var later = 1;")]
    [InlineData( // anything else in the finally stays
        "try { await Task.Delay(1, cts.Token); } finally { cts?.Dispose(); Work(); }",
        "try { await Task.Delay(1, ctsToken); } finally { Work(); }")]
    public Task A_finally_left_empty_by_the_token_rewrite_is_removed(string body, string fixedBody) => Verify.VerifyAsync(
        $$"""
        using System;
        using System.Threading;
        using System.Threading.Tasks;

        class C
        {
            async Task M()
            {
                var cts = {|CT0002:new CancellationTokenSource(100)|};
                {{body}}
            }

            static void Work() { }
        }
        """,
        $$"""
        using System;
        using System.Threading;
        using System.Threading.Tasks;
        using CoarseTimers;

        class C
        {
            async Task M()
            {
                var ctsToken = CoarseTimeout.After(100);
                {{fixedBody}}
            }

            static void Work() { }
        }
        """);

    [Fact]
    public Task Nested_finally_blocks_left_empty_are_all_removed_in_one_pass() => Verify.VerifyAsync(
        """
        using System.IO;
        using System.Threading;
        using System.Threading.Tasks;

        class C
        {
            async Task M(Stream stream)
            {
                var outer = {|CT0002:new CancellationTokenSource(1000)|};
                try
                {
                    var inner = {|CT0002:new CancellationTokenSource(100)|};
                    try
                    {
                        await stream.FlushAsync(inner.Token);
                    }
                    finally
                    {
                        inner.Dispose();
                    }

                    await stream.FlushAsync(outer.Token);
                }
                finally
                {
                    outer.Dispose();
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
            async Task M(Stream stream)
            {
                var outerToken = CoarseTimeout.After(1000);
                {
                    var innerToken = CoarseTimeout.After(100);
                    await stream.FlushAsync(innerToken);

                    await stream.FlushAsync(outerToken);
                }
            }
        }
        """);

    [Theory]
    [InlineData("_cts = Make();")] // the other target assigns a BCL source: a retyped field would not compile there
    [InlineData("Console.WriteLine(_cts);")] // any use the compiler cannot bind here
    public Task No_fix_when_the_storage_is_named_in_an_inactive_preprocessor_branch(string otherTarget) => Verify.VerifyNotOfferedAsync(
        $$"""
        using System;
        using System.Threading;

        class C
        {
            private CancellationTokenSource? _cts;

            public void Arm()
            {
        #if OTHER_TARGET_FRAMEWORK
                {{otherTarget}}
        #else
                _cts = {|CT0002:new CancellationTokenSource(100)|};
        #endif
            }

            public void Stop() => _cts?.Dispose();

            private static CancellationTokenSource Make() => new CancellationTokenSource();
        }
        """);

    [Fact]
    public Task No_fix_when_a_partial_part_naming_the_field_is_wholly_in_an_inactive_branch() => Verify.VerifyNotOfferedAsync(
        """
        using System.Threading;

        partial class C
        {
            private CancellationTokenSource? _cts;

            public void Arm() => _cts = {|CT0002:new CancellationTokenSource(100)|};

            public void Stop() => _cts?.Dispose();
        }

        #if OTHER_TARGET_FRAMEWORK
        partial class C
        {
            public void Other() => _cts = new CancellationTokenSource();
        }
        #endif
        """);

    [Fact]
    public Task A_local_named_in_an_inactive_preprocessor_branch_keeps_its_declaration() => Verify.VerifyNotOfferedAsync(
        """
        using System.Threading;
        using System.Threading.Tasks;

        class C
        {
            async Task M()
            {
                var cts = {|CT0002:new CancellationTokenSource(100)|};
        #if OTHER_TARGET_FRAMEWORK
                cts = new CancellationTokenSource();
        #endif
                await Task.Delay(1, cts.Token);
            }
        }
        """);

    [Fact]
    public Task No_fix_when_the_same_local_later_holds_a_TimeProvider_source() => Verify.VerifyNotOfferedAsync(
        """
        using System;
        using System.Threading;
        using System.Threading.Tasks;

        class C
        {
            async Task M(TimeProvider time)
            {
                var cts = {|CT0002:new CancellationTokenSource(100)|};
                await Task.Delay(1, cts.Token);
                cts = new CancellationTokenSource(TimeSpan.FromMilliseconds(50), time);
                await Task.Delay(1, cts.Token);
            }
        }
        """);

    [Theory]
    [InlineData("cts.Cancel();")]
    [InlineData("cts.Token.Register(() => { });")]
    [InlineData("Console.WriteLine(cts.IsCancellationRequested);")]
    [InlineData("Console.WriteLine(cts.Token.IsCancellationRequested);")]
    [InlineData("try { } catch (OperationCanceledException e) when (e.CancellationToken == cts.Token) { }")]
    [InlineData("var token = cts.Token;")]
    public Task A_source_cancelled_registered_read_or_compared_keeps_a_source_of_its_own(string use) => Verify.VerifyAsync(
        $$"""
        using System;
        using System.Threading;
        using System.Threading.Tasks;

        class C
        {
            async Task M()
            {
                using var cts = {|CT0002:new CancellationTokenSource(100)|};
                await Task.Delay(1, cts.Token);
                {{use}}
            }
        }
        """,
        $$"""
        using System;
        using System.Threading;
        using System.Threading.Tasks;
        using CoarseTimers;

        class C
        {
            async Task M()
            {
                using var cts = new CoarseCancellationTokenSource(100);
                await Task.Delay(1, cts.Token);
                {{use}}
            }
        }
        """);

    [Fact]
    public Task A_linked_source_armed_once_right_after_creation_becomes_a_linked_timeout() => Verify.VerifyAsync(
        """
        using System;
        using System.Threading;
        using System.Threading.Tasks;

        class C
        {
            async Task M(CancellationToken token, TimeSpan timeout)
            {
                using var cts = CancellationTokenSource.CreateLinkedTokenSource(token);
                {|CT0002:cts.CancelAfter(timeout)|};
                await Task.Run(() => { }, cts.Token);
                cts.Cancel();

                using (var other = CancellationTokenSource.CreateLinkedTokenSource(token))
                {
                    {|CT0002:other.CancelAfter(millisecondsDelay: 100)|};
                    await Task.Run(() => { }, other.Token);
                }
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
            async Task M(CancellationToken token, TimeSpan timeout)
            {
                using var cts = CoarseTimeout.CreateLinkedTokenSource(token, timeout);
                await Task.Run(() => { }, cts.Token);
                cts.Cancel();

                using (var other = CoarseTimeout.CreateLinkedTokenSource(token, millisecondsDelay: 100))
                {
                    await Task.Run(() => { }, other.Token);
                }
            }
        }
        """);

    [Theory]
    [InlineData("Console.WriteLine();\n        {|CT0002:cts.CancelAfter(100)|};", "Console.WriteLine();\n        cts.CancelAfter(100);")]
    [InlineData("{|CT0002:cts.CancelAfter(100)|};\n        {|CT0002:cts.CancelAfter(200)|};", "cts.CancelAfter(100);\n        cts.CancelAfter(200);")]
    public Task A_linked_source_armed_late_or_re_armed_keeps_a_coarse_source(string arms, string fixedArms) => Verify.VerifyAsync(
        $$"""
        using System;
        using System.Threading;

        class C
        {
            void M(CancellationToken token)
            {
                using var cts = CancellationTokenSource.CreateLinkedTokenSource(token);
                {{arms}}
            }
        }
        """,
        $$"""
        using System;
        using System.Threading;
        using CoarseTimers;

        class C
        {
            void M(CancellationToken token)
            {
                using var cts = CoarseCancellationTokenSource.CreateLinkedTokenSource(token);
                {{fixedArms}}
            }
        }
        """);

    [Theory]
    [InlineData("Use(cts);")]
    [InlineData("Keep = cts;")]
    [InlineData("CancellationTokenSource other = cts;")]
    [InlineData("object boxed = cts;")]
    [InlineData("var list = new List<CancellationTokenSource> { cts };")]
    [InlineData("var array = new[] { cts };")]
    [InlineData("Func<CancellationTokenSource> later = () => cts;")]
    [InlineData("var cast = (CancellationTokenSource)cts;")]
    [InlineData("cts.Rearm();")]
    [InlineData("var pair = (cts, 1);")]
    public Task No_coarse_source_where_a_CancellationTokenSource_reference_could_reach_it(string use) => Verify.VerifyNotOfferedAsync(
        $$"""
        using System;
        using System.Collections.Generic;
        using System.Threading;

        static class Extensions
        {
            public static void Rearm(this CancellationTokenSource source) => source.Cancel();
        }

        class C
        {
            public CancellationTokenSource Keep;

            static void Use(CancellationTokenSource source) => source.Cancel();

            void M()
            {
                using var cts = {|CT0002:new CancellationTokenSource(100)|};
                cts.Cancel();
                {{use}}
            }
        }
        """);

    [Theory]
    [InlineData("Use({|CT0002:new CancellationTokenSource(100)|});")]
    [InlineData("Keep = {|CT0002:new CancellationTokenSource(100)|};")]
    [InlineData("IDisposable d = {|CT0002:new CancellationTokenSource(100)|};\n        Console.WriteLine(d);")]
    [InlineData("Use(CancellationTokenSource.CreateLinkedTokenSource(default(CancellationToken)));\n        var linked = CancellationTokenSource.CreateLinkedTokenSource(default(CancellationToken));\n        {|CT0002:linked.CancelAfter(100)|};\n        Use(linked);")]
    public Task No_coarse_source_for_a_creation_handed_to_a_base_typed_location(string body) => Verify.VerifyNotOfferedAsync(
        $$"""
        using System;
        using System.Threading;

        class C
        {
            public CancellationTokenSource Keep;

            static CancellationTokenSource Make() => {|CT0002:new CancellationTokenSource(100)|};

            static void Use(CancellationTokenSource source) => source.Cancel();

            void M()
            {
                {{body}}
            }
        }
        """);

    [Fact]
    public Task A_source_handed_on_as_IDisposable_keeps_the_BCL_type() => Verify.VerifyNotOfferedAsync(
        """
        using System;
        using System.Threading;

        class C
        {
            // Whoever receives it may test it for CancellationTokenSource and re-arm it (`d is CancellationTokenSource s`).
            static void Release(IDisposable resource) => resource.Dispose();

            void M()
            {
                var cts = {|CT0002:new CancellationTokenSource(100)|};
                cts.Cancel();
                Release(cts);
            }
        }
        """);
}
