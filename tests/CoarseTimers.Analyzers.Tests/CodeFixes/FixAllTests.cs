using System.Threading.Tasks;
using CoarseTimers.Analyzers.Tests.Infrastructure;
using Xunit;
using VerifyDelay = CoarseTimers.Analyzers.Tests.CodeFixes.FixTest<
    CoarseTimers.Analyzers.Rules.TaskDelayAnalyzer,
    CoarseTimers.CodeFixes.Fixes.TaskDelayCodeFixProvider>;
using VerifyTimer = CoarseTimers.Analyzers.Tests.CodeFixes.FixTest<
    CoarseTimers.Analyzers.Rules.ThreadingTimerAnalyzer,
    CoarseTimers.CodeFixes.Fixes.ThreadingTimerCodeFixProvider>;

namespace CoarseTimers.Analyzers.Tests.CodeFixes;

/// <summary>
/// Fix All across documents and projects. Every verifier run applies the fix one site at a time and as Fix All in
/// document, project and solution scope, and compares each result with the same fixed state.
/// </summary>
public partial class FixAllTests
{
    [Fact]
    public async Task Several_documents_and_projects_are_fixed_with_one_equivalence_key()
    {
        var test = VerifyDelay.Create(
            """
            using System.Threading.Tasks;

            class A
            {
                async Task M()
                {
                    await {|CT0001:Task.Delay(1)|};
                    await Task.WhenAll({|CT0001:Task.Delay(2)|}, {|CT0001:Task.Delay(3)|});
                }
            }
            """,
            """
            using System.Threading.Tasks;
            using CoarseTimers;

            class A
            {
                async Task M()
                {
                    await CoarseTimer.Delay(1);
                    await Task.WhenAll(CoarseTimer.Delay(2), CoarseTimer.Delay(3));
                }
            }
            """);
        test.TestState.Sources.Add(("/B.cs", """
            namespace N
            {
                using System.Threading.Tasks;

                class B
                {
                    Task M() => {|CT0001:Task.Delay(4)|};
                }
            }
            """));
        test.FixedState.Sources.Add(("/B.cs", """
            namespace N
            {
                using System.Threading.Tasks;
                using CoarseTimers;

                class B
                {
                    Task M() => CoarseTimer.Delay(4);
                }
            }
            """));

        var second = test.TestState.AdditionalProjects["Second"];
        second.AdditionalReferences.AddRange(TestReferences.Net80);
        second.AdditionalReferences.Add(TestReferences.Runtime);
        second.Sources.Add(("/Second/D.cs", """
            using System.Threading.Tasks;

            class D
            {
                async Task M()
                {
                    for (var i = 0; i < 3; i++)
                    {
                        await {|CT0001:Task.Delay(5)|};
                    }
                }
            }
            """));
        var secondFixed = test.FixedState.AdditionalProjects["Second"];
        secondFixed.AdditionalReferences.AddRange(TestReferences.Net80);
        secondFixed.AdditionalReferences.Add(TestReferences.Runtime);
        secondFixed.Sources.Add(("/Second/D.cs", """
            using System.Threading.Tasks;
            using CoarseTimers;

            class D
            {
                async Task M()
                {
                    for (var i = 0; i < 3; i++)
                    {
                        await CoarseTimer.Delay(5);
                    }
                }
            }
            """));

        // One pass per scope: each document with a diagnostic once (3), each project once (2), the solution at once.
        test.NumberOfFixAllInDocumentIterations = 3;
        test.NumberOfFixAllInProjectIterations = 2;
        test.NumberOfFixAllIterations = 1;
        await test.RunAsync();
    }

    [Fact]
    public Task Nested_sites_and_several_sites_in_one_statement() => VerifyTimer.VerifyAsync(
        """
        using System;
        using System.Threading;

        class C
        {
            private Timer? _timer;

            void M()
            {
                _timer = {|CT0003:new Timer(_ => { using var inner = {|CT0003:new Timer(_ => { }, null, 1, 1)|}; }, null, 2, 2)|};
                using (var third = {|CT0003:new Timer(_ => { }, null, 3, 3)|}) using (var fourth = {|CT0003:new Timer(_ => { }, null, 4, 4)|}) { }
                _timer.Dispose();
            }
        }
        """,
        """
        using System;
        using System.Threading;
        using CoarseTimers;

        class C
        {
            private CoarseTimer? _timer;

            void M()
            {
                _timer = new CoarseTimer(_ => { using var inner = new CoarseTimer(_ => { }, null, 1, 1); }, null, 2, 2);
                using (var third = new CoarseTimer(_ => { }, null, 3, 3)) using (var fourth = new CoarseTimer(_ => { }, null, 4, 4)) { }
                _timer.Dispose();
            }
        }
        """);

    [Fact]
    public Task Sites_of_every_rule_nested_in_one_loop() => new AllRulesFixTest
    {
        // Fix All runs once per rule: each rule has its own equivalence key.
        NumberOfFixAllIterations = 4,
        NumberOfFixAllInDocumentIterations = 4,
        NumberOfFixAllInProjectIterations = 4,
        TestCode = """
            using System.Threading;
            using System.Threading.Tasks;

            class C
            {
                async Task M(Task work, CancellationToken token)
                {
                    while (!work.IsCompleted)
                    {
                        using var linked = CancellationTokenSource.CreateLinkedTokenSource(token);
                        {|CT0002:linked.CancelAfter(500)|};
                        await Task.WhenAny(work, {|CT0001:Task.Delay(100, {|CT0002:new CancellationTokenSource(1000)|}.Token)|}, {|CT0001:Task.Delay(200, linked.Token)|});
                        using var timer = {|CT0003:new Timer(_ => {|CT0004:SpinWait.SpinUntil(() => work.IsCompleted, 50)|}, null, 100, Timeout.Infinite)|};
                    }
                }
            }
            """,
        FixedCode = """
            using System.Threading;
            using System.Threading.Tasks;
            using CoarseTimers;

            class C
            {
                async Task M(Task work, CancellationToken token)
                {
                    while (!work.IsCompleted)
                    {
                        using var linked = CoarseTimeout.CreateLinkedTokenSource(token, 500);
                        await Task.WhenAny(work, CoarseTimer.Delay(100, CoarseTimeout.After(1000)), CoarseTimer.Delay(200, linked.Token));
                        using var timer = new CoarseTimer(_ => SpinThenBlock.SpinUntil(() => work.IsCompleted, 50), null, 100, Timeout.Infinite);
                    }
                }
            }
            """,
    }.RunAsync();
}
