using System.Threading.Tasks;
using CoarseTimers.Analyzers.Rules;
using CoarseTimers.Analyzers.Tests.Infrastructure;
using CoarseTimers.CodeFixes.Fixes;
using Microsoft.CodeAnalysis.Testing;
using Xunit;

namespace CoarseTimers.Analyzers.Tests.CodeFixes;

/// <summary>Fix All across documents and projects, and nested sites of one rule, with nothing lost.</summary>
public partial class FixAllTests
{
    private const string Before = """
        using System.Threading.Tasks;

        class {0}
        {
            async Task M(Task work)
            {
                for (var i = 0; i < 3; i++)
                {
                    await Task.WhenAny(work, {|CT0001:Task.Delay(100)|}, {|CT0001:Task.Delay(200)|});
                }
            }
        }
        """;

    private const string After = """
        using System.Threading.Tasks;
        using CoarseTimers;

        class {0}
        {
            async Task M(Task work)
            {
                for (var i = 0; i < 3; i++)
                {
                    await Task.WhenAny(work, CoarseTimer.Delay(100), CoarseTimer.Delay(200));
                }
            }
        }
        """;

    [Fact]
    public Task Fix_all_in_documents_and_projects_of_a_solution()
    {
        var test = new CodeFixVerifier<TaskDelayAnalyzer, TaskDelayCodeFixProvider>();
        test.TestState.Sources.Add(("A.cs", Before.Replace("{0}", "A")));
        test.TestState.Sources.Add(("B.cs", Before.Replace("{0}", "B")));
        test.FixedState.Sources.Add(("A.cs", After.Replace("{0}", "A")));
        test.FixedState.Sources.Add(("B.cs", After.Replace("{0}", "B")));

        var other = new ProjectState("Other", Microsoft.CodeAnalysis.LanguageNames.CSharp, "/Other/", "cs");
        other.Sources.Add(("C.cs", Before.Replace("{0}", "C")));
        other.AdditionalReferences.AddRange(TestReferences.Net80);
        other.AdditionalReferences.Add(TestReferences.Runtime);
        test.TestState.AdditionalProjects.Add("Other", other);
        var fixedOther = new ProjectState("Other", Microsoft.CodeAnalysis.LanguageNames.CSharp, "/Other/", "cs");
        fixedOther.Sources.Add(("C.cs", After.Replace("{0}", "C")));
        fixedOther.AdditionalReferences.AddRange(TestReferences.Net80);
        fixedOther.AdditionalReferences.Add(TestReferences.Runtime);
        test.FixedState.AdditionalProjects.Add("Other", fixedOther);

        // One pass per scope: each document once, each project once, the solution at once.
        test.NumberOfFixAllInDocumentIterations = 3;
        test.NumberOfFixAllInProjectIterations = 2;
        test.NumberOfFixAllIterations = 1;
        return test.RunAsync();
    }

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
