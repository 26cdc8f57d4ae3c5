using System.Threading.Tasks;
using CoarseTimers.Analyzers.Rules;
using CoarseTimers.CodeFixes.Fixes;
using Xunit;

namespace CoarseTimers.Analyzers.Tests.CodeFixes;

/// <summary>Fix All across documents and projects, and nested sites of one rule, with nothing lost.</summary>
public partial class FixAllTests
{
    [Fact]
    public Task Nested_sites_of_one_rule_are_all_fixed() =>
        FixTest<SpinUntilAnalyzer, SpinUntilCodeFixProvider>.VerifyUnderDefaultModelAsync("""
            using System.Threading;

            class C
            {
                private volatile bool _ready;

                void M()
                {
                    {|CT0004:SpinWait.SpinUntil(() => {|CT0004:SpinWait.SpinUntil(() => _ready, 5)|}, 50)|};
                }
            }
            """, """
            using System.Threading;
            using CoarseTimers;

            class C
            {
                private volatile bool _ready;

                void M()
                {
                    SpinThenBlock.SpinUntil(() => SpinThenBlock.SpinUntil(() => _ready, 5), 50);
                }
            }
            """);
}
