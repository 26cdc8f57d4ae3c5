using System.Threading.Tasks;
using Xunit;
using Verify = CoarseTimers.Analyzers.Tests.CodeFixes.FixTest<
    CoarseTimers.Analyzers.Rules.TimeoutCancellationTokenSourceAnalyzer,
    CoarseTimers.CodeFixes.Fixes.TimeoutCancellationTokenSourceCodeFixProvider>;

namespace CoarseTimers.Analyzers.Tests.Rules;

public partial class TimeoutCancellationTokenSourceTests
{
    [Fact]
    public Task Timeout_constructors_with_using_declarations_and_statements() => Verify.VerifyAsync(
        """
        using System;
        using System.Threading;

        class C
        {
            void M()
            {
                using var first = {|CT0002:new CancellationTokenSource(TimeSpan.FromSeconds(1))|};
                using (var second = {|CT0002:new CancellationTokenSource(100)|})
                {
                    second.Cancel();
                }

                using CancellationTokenSource third = {|CT0002:new CancellationTokenSource(millisecondsDelay: 100)|};
                first.Cancel();
                Console.WriteLine(third.IsCancellationRequested);
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
                using var first = new CoarseCancellationTokenSource(TimeSpan.FromSeconds(1));
                using (var second = new CoarseCancellationTokenSource(100))
                {
                    second.Cancel();
                }

                using CoarseCancellationTokenSource third = new CoarseCancellationTokenSource(millisecondsDelay: 100);
                first.Cancel();
                Console.WriteLine(third.IsCancellationRequested);
            }
        }
        """);

    [Fact]
    public Task A_field_stored_with_null_coalescing_assignment_changes_type() => Verify.VerifyAsync(
        """
        using System.Threading;

        class Call
        {
            private CancellationTokenSource? _source;

            public CancellationToken Arm()
            {
                _source ??= {|CT0002:new CancellationTokenSource(5000)|};
                return _source.Token;
            }

            public void Complete() => _source?.Dispose();
        }
        """,
        """
        using System.Threading;
        using CoarseTimers;

        class Call
        {
            private CoarseCancellationTokenSource? _source;

            public CancellationToken Arm()
            {
                _source ??= new CoarseCancellationTokenSource(5000);
                return _source.Token;
            }

            public void Complete() => _source?.Dispose();
        }
        """);

    [Fact]
    public Task Target_typed_new_and_object_initializer() => Verify.VerifyAsync(
        """
        using System.Threading;

        class C
        {
            void M()
            {
                CancellationTokenSource implicitType = {|CT0002:new(100)|};
                var withInitializer = {|CT0002:new CancellationTokenSource(100) { }|};
                implicitType.Cancel();
                withInitializer.Cancel();
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
                CoarseCancellationTokenSource implicitType = new CoarseCancellationTokenSource(100);
                var withInitializer = new CoarseCancellationTokenSource(100) { };
                implicitType.Cancel();
                withInitializer.Cancel();
            }
        }
        """);

    [Fact]
    public Task CancelAfter_rewrites_the_creation_of_a_var_local() => Verify.VerifyAsync(
        """
        using System.Threading;

        class C
        {
            void M()
            {
                using var cts = new CancellationTokenSource();
                {|CT0002:cts.CancelAfter(100)|};
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
                using var cts = new CoarseCancellationTokenSource();
                cts.CancelAfter(100);
            }
        }
        """);

    [Fact]
    public Task CancelAfter_changes_an_explicit_declared_type() => Verify.VerifyAsync(
        """
        using System;
        using System.Threading;

        class C
        {
            void M()
            {
                // the source for this call
                using (CancellationTokenSource cts = new CancellationTokenSource())
                {
                    {|CT0002:cts.CancelAfter(TimeSpan.FromSeconds(1))|};
                }
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
                // the source for this call
                using (CoarseCancellationTokenSource cts = new CoarseCancellationTokenSource())
                {
                    cts.CancelAfter(TimeSpan.FromSeconds(1));
                }
            }
        }
        """);

    [Fact]
    public Task CancelAfter_on_a_linked_source() => Verify.VerifyAsync(
        """
        using System.Threading;
        using System.Threading.Tasks;

        class C
        {
            async Task M(CancellationToken token)
            {
                using var cts = CancellationTokenSource.CreateLinkedTokenSource(token);
                {|CT0002:cts.CancelAfter(100)|};
                await Task.Yield();
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
                await Task.Yield();
            }
        }
        """);

    [Fact]
    public Task Timeout_creation_and_CancelAfter_on_one_local_are_fixed_once() => Verify.VerifyAsync(
        """
        using System.Threading;

        class C
        {
            void M()
            {
                CancellationTokenSource cts = {|CT0002:new CancellationTokenSource(100)|};
                {|CT0002:cts.CancelAfter(200)|};
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
                CoarseCancellationTokenSource cts = new CoarseCancellationTokenSource(100);
                cts.CancelAfter(200);
            }
        }
        """);

    [Fact]
    public Task CancelAfter_on_a_private_field_created_in_the_type() => Verify.VerifyAsync(
        """
        using System.Threading;

        class C
        {
            private readonly CancellationTokenSource _cts = new CancellationTokenSource();

            void M() => {|CT0002:_cts.CancelAfter(100)|};
        }
        """,
        """
        using System.Threading;
        using CoarseTimers;

        class C
        {
            private readonly CoarseCancellationTokenSource _cts = new CoarseCancellationTokenSource();

            void M() => _cts.CancelAfter(100);
        }
        """);

    [Fact]
    public Task CancelAfter_on_a_parameter_is_not_fixed() => Verify.VerifyNotOfferedAsync(
        """
        using System.Threading;

        class C
        {
            void M(CancellationTokenSource cts) => {|CT0002:cts.CancelAfter(100)|};
        }
        """);

    [Fact]
    public Task CancelAfter_on_a_source_returned_by_a_method_is_not_fixed() => Verify.VerifyNotOfferedAsync(
        """
        using System.Threading;

        class C
        {
            static CancellationTokenSource Create() => new CancellationTokenSource();

            void M()
            {
                using var cts = Create();
                {|CT0002:cts.CancelAfter(100)|};
            }
        }
        """);

    [Fact]
    public Task CancelAfter_on_a_public_field_is_not_fixed() => Verify.VerifyNotOfferedAsync(
        """
        using System.Threading;

        public class C
        {
            public CancellationTokenSource Cts = new CancellationTokenSource();

            void M() => {|CT0002:Cts.CancelAfter(100)|};
        }
        """);

    [Fact]
    public Task CancelAfter_on_a_local_passed_by_ref_is_not_fixed() => Verify.VerifyNotOfferedAsync(
        """
        using System.Threading;

        class C
        {
            static void Replace(ref CancellationTokenSource cts) => cts = new CancellationTokenSource();

            void M()
            {
                var cts = new CancellationTokenSource();
                Replace(ref cts);
                {|CT0002:cts.CancelAfter(100)|};
            }
        }
        """);

    [Fact]
    public Task CancelAfter_on_a_local_copied_into_a_var_or_a_tuple_is_not_fixed() => Verify.VerifyNotOfferedAsync(
        """
        using System.Threading;

        class C
        {
            void M()
            {
                var cts = new CancellationTokenSource();
                {|CT0002:cts.CancelAfter(100)|};
                var copy = cts;
                copy = new CancellationTokenSource();

                var other = new CancellationTokenSource();
                {|CT0002:other.CancelAfter(100)|};
                (other, copy) = (copy, other);
            }
        }
        """);

    [Fact]
    public Task CancelAfter_on_a_field_linked_from_several_tokens() => Verify.VerifyAsync(
        """
        using System.Threading;

        class C
        {
            private CancellationTokenSource? _cts;

            void Start(CancellationToken a, CancellationToken b, CancellationToken c)
            {
                _cts = CancellationTokenSource.CreateLinkedTokenSource(a, b);
                _cts = CancellationTokenSource.CreateLinkedTokenSource(new[] { a, b, c });
                {|CT0002:_cts.CancelAfter(100)|};
            }
        }
        """,
        """
        using System.Threading;
        using CoarseTimers;

        class C
        {
            private CoarseCancellationTokenSource? _cts;

            void Start(CancellationToken a, CancellationToken b, CancellationToken c)
            {
                _cts = CoarseCancellationTokenSource.CreateLinkedTokenSource(a, b);
                _cts = CoarseCancellationTokenSource.CreateLinkedTokenSource(new[] { a, b, c });
                _cts.CancelAfter(100);
            }
        }
        """);

    [Fact]
    public Task CancelAfter_on_a_private_field_set_from_outside_is_not_fixed() => Verify.VerifyNotOfferedAsync(
        """
        using System.Threading;

        class C
        {
            private readonly CancellationTokenSource _cts;

            public C(CancellationTokenSource cts) => _cts = cts;

            void M() => {|CT0002:_cts.CancelAfter(100)|};
        }
        """);

    [Fact]
    public async Task CancelAfter_on_a_field_of_a_partial_type_is_not_fixed()
    {
        const string otherPart = "using System.Threading;\n\npartial class C\n{\n    void Reset() => _cts = new CancellationTokenSource();\n}\n";
        var test = Verify.Create(
            """
            using System.Threading;

            partial class C
            {
                private CancellationTokenSource _cts = new CancellationTokenSource();

                void M() => {|CT0002:_cts.CancelAfter(100)|};
            }
            """,
            """
            using System.Threading;

            partial class C
            {
                private CancellationTokenSource _cts = new CancellationTokenSource();

                void M() => {|CT0002:_cts.CancelAfter(100)|};
            }
            """);
        test.TestState.Sources.Add(("/Other.cs", otherPart));
        test.FixedState.Sources.Add(("/Other.cs", otherPart));
        await test.RunAsync();
    }

    [Fact]
    public Task Not_offered_without_the_runtime() => Verify.VerifyNotOfferedAsync(
        """
        using System.Threading;

        class C
        {
            void M()
            {
                using var cts = {|CT0002:new CancellationTokenSource(100)|};
            }
        }
        """,
        referenceRuntime: false);
}
