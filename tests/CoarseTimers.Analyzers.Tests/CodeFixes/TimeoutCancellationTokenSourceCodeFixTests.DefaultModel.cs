using System.Threading.Tasks;
using Xunit;
using Verify = CoarseTimers.Analyzers.Tests.CodeFixes.FixTest<CoarseTimers.Analyzers.Rules.TimeoutCancellationTokenSourceAnalyzer, CoarseTimers.CodeFixes.Fixes.TimeoutCancellationTokenSourceCodeFixProvider>;

namespace CoarseTimers.Analyzers.Tests.Rules;

public partial class TimeoutCancellationTokenSourceTests
{
    [Fact]
    public Task A_factory_of_timeout_tokens_returns_a_shared_timeout_token() =>
        Verify.VerifyUnderDefaultModelAsync("""
            using System;
            using System.Threading;

            class Interactivity
            {
                private readonly TimeSpan _timeout = TimeSpan.FromSeconds(30);

                private CancellationToken GetCancellationToken(TimeSpan? timeout = null) => {|CT0002:new CancellationTokenSource(timeout ?? _timeout)|}.Token;

                public CancellationToken TimeoutToken(int milliseconds)
                {
                    return {|CT0002:new CancellationTokenSource(milliseconds)|}.Token;
                }
            }
            """, """
            using System;
            using System.Threading;
            using CoarseTimers;

            class Interactivity
            {
                private readonly TimeSpan _timeout = TimeSpan.FromSeconds(30);

                private CancellationToken GetCancellationToken(TimeSpan? timeout = null) => CoarseTimeout.After(timeout ?? _timeout);

                public CancellationToken TimeoutToken(int milliseconds)
                {
                    return CoarseTimeout.After(milliseconds);
                }
            }
            """);

    [Fact]
    public Task Creations_with_var_explicit_type_using_and_initializer() =>
        Verify.VerifyUnderDefaultModelAsync("""
            using System;
            using System.Threading;

            class C
            {
                void M()
                {
                    using var a = {|CT0002:new CancellationTokenSource(TimeSpan.FromSeconds(5))|};
                    using (CancellationTokenSource b = {|CT0002:new CancellationTokenSource(100) { }|})
                    {
                    }

                    CancellationTokenSource c = {|CT0002:new(250)|};
                    c.Dispose();
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
                    var aToken = CoarseTimeout.After(TimeSpan.FromSeconds(5));
                    {
                        var bToken = CoarseTimeout.After(100);
                    }

                    var cToken = CoarseTimeout.After(250);
                }
            }
            """);

    [Fact]
    public Task CancelAfter_rewrites_the_creation_and_an_explicit_declaration() =>
        Verify.VerifyUnderDefaultModelAsync("""
            using System;
            using System.Threading;

            class C
            {
                void M(CancellationToken outer)
                {
                    using var linked = CancellationTokenSource.CreateLinkedTokenSource(outer);
                    {|CT0002:linked.CancelAfter(TimeSpan.FromSeconds(2))|};

                    CancellationTokenSource plain = new CancellationTokenSource();
                    {|CT0002:plain.CancelAfter(100)|};
                    {|CT0002:plain.CancelAfter(200)|};
                }
            }
            """, """
            using System;
            using System.Threading;
            using CoarseTimers;

            class C
            {
                void M(CancellationToken outer)
                {
                    using var linked = CoarseTimeout.CreateLinkedTokenSource(outer, TimeSpan.FromSeconds(2));
                    CoarseCancellationTokenSource plain = new CoarseCancellationTokenSource();
                    plain.CancelAfter(100);
                    plain.CancelAfter(200);
                }
            }
            """);

    [Fact]
    public Task Creation_and_CancelAfter_on_the_same_source_apply_once() =>
        Verify.VerifyUnderDefaultModelAsync("""
            using System.Threading;

            class C
            {
                void M()
                {
                    var cts = {|CT0002:new CancellationTokenSource(5000)|};
                    {|CT0002:cts.CancelAfter(100)|};
                    cts.Dispose();
                }
            }
            """, """
            using System.Threading;
            using CoarseTimers;

            class C
            {
                void M()
                {
                    var cts = new CoarseCancellationTokenSource(5000);
                    cts.CancelAfter(100);
                    cts.Dispose();
                }
            }
            """);

    [Fact]
    public Task A_null_conditional_CancelAfter_retypes_the_field_it_arms() =>
        Verify.VerifyUnderDefaultModelAsync("""
            using System;
            using System.Threading;

            class Connection : IDisposable
            {
                private CancellationTokenSource? _requestTimeout = new CancellationTokenSource();

                public void Send(TimeSpan timeout) => _requestTimeout?{|CT0002:.CancelAfter(timeout)|};

                public void Dispose() => _requestTimeout?.Dispose();
            }
            """, """
            using System;
            using System.Threading;
            using CoarseTimers;

            class Connection : IDisposable
            {
                private CoarseCancellationTokenSource? _requestTimeout = new CoarseCancellationTokenSource();

                public void Send(TimeSpan timeout) => _requestTimeout?.CancelAfter(timeout);

                public void Dispose() => _requestTimeout?.Dispose();
            }
            """);

    [Fact]
    public Task No_fix_when_the_source_comes_from_outside_or_is_passed_by_ref() =>
        Verify.VerifyNotOfferedUnderDefaultModelAsync("""
            using System.Threading;

            class C
            {
                void M(CancellationTokenSource given)
                {
                    for (;;) { {|CT0002:given.CancelAfter(100)|}; break; }
                    var made = Make();
                    {|CT0002:made.CancelAfter(100)|};
                    var byRef = new CancellationTokenSource();
                    {|CT0002:byRef.CancelAfter(100)|};
                    Swap(ref byRef);
                }

                static CancellationTokenSource Make() => new();
                static void Swap(ref CancellationTokenSource source) { }
            }
            """);
}
