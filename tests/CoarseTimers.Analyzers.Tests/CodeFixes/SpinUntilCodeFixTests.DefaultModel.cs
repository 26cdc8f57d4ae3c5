using System.Threading.Tasks;
using Xunit;
using Verify = CoarseTimers.Analyzers.Tests.CodeFixes.FixTest<CoarseTimers.Analyzers.Rules.SpinUntilAnalyzer, CoarseTimers.CodeFixes.Fixes.SpinUntilCodeFixProvider>;

namespace CoarseTimers.Analyzers.Tests.Rules;

public partial class SpinUntilTests
{
    [Fact]
    public Task All_overloads() =>
        Verify.VerifyUnderDefaultModelAsync("""
            using System;
            using System.Diagnostics;
            using System.Threading;

            class C
            {
                private volatile bool _ready;

                void M()
                {
                    var sw = Stopwatch.StartNew();
                    {|CT0004:SpinWait.SpinUntil(() => sw.ElapsedMilliseconds > 2)|};
                    bool a = {|CT0004:SpinWait.SpinUntil(() => _ready, 100)|};
                    bool b = {|CT0004:SpinWait.SpinUntil(condition: () => _ready, timeout: TimeSpan.FromSeconds(1))|};
                }
            }
            """, """
            using System;
            using System.Diagnostics;
            using System.Threading;
            using CoarseTimers;

            class C
            {
                private volatile bool _ready;

                void M()
                {
                    var sw = Stopwatch.StartNew();
                    SpinThenBlock.SpinUntil(() => sw.ElapsedMilliseconds > 2);
                    bool a = SpinThenBlock.SpinUntil(() => _ready, 100);
                    bool b = SpinThenBlock.SpinUntil(condition: () => _ready, timeout: TimeSpan.FromSeconds(1));
                }
            }
            """);
}
