using System.Threading.Tasks;
using Xunit;
using Verify = CoarseTimers.Analyzers.Tests.CodeFixes.FixTest<
    CoarseTimers.Analyzers.Rules.SpinUntilAnalyzer,
    CoarseTimers.CodeFixes.Fixes.SpinUntilCodeFixProvider>;

namespace CoarseTimers.Analyzers.Tests.Rules;

public partial class SpinUntilTests
{
    [Fact]
    public Task Every_overload_and_named_arguments() => Verify.VerifyAsync(
        """
        using System;
        using System.Threading;

        class C
        {
            private volatile bool _ready;

            bool M()
            {
                {|CT0004:SpinWait.SpinUntil(() => _ready)|};
                var a = {|CT0004:SpinWait.SpinUntil(() => _ready, 5000)|};
                var b = {|CT0004:SpinWait.SpinUntil(() => _ready, TimeSpan.FromSeconds(5))|};
                return a && b && {|CT0004:System.Threading.SpinWait.SpinUntil(millisecondsTimeout: 5000, condition: () => _ready)|};
            }
        }
        """,
        """
        using System;
        using System.Threading;
        using CoarseTimers;

        class C
        {
            private volatile bool _ready;

            bool M()
            {
                SpinThenBlock.SpinUntil(() => _ready);
                var a = SpinThenBlock.SpinUntil(() => _ready, 5000);
                var b = SpinThenBlock.SpinUntil(() => _ready, TimeSpan.FromSeconds(5));
                return a && b && SpinThenBlock.SpinUntil(millisecondsTimeout: 5000, condition: () => _ready);
            }
        }
        """);

    [Fact]
    public Task Not_offered_without_the_runtime() => Verify.VerifyNotOfferedAsync(
        """
        using System.Threading;

        class C
        {
            private volatile bool _ready;

            void M() => {|CT0004:SpinWait.SpinUntil(() => _ready, 5000)|};
        }
        """,
        referenceRuntime: false);
}
