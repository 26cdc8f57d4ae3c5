using System.Threading.Tasks;
using Xunit;
using Verify = CoarseTimers.Analyzers.Tests.CodeFixes.FixTest<
    CoarseTimers.Analyzers.Rules.TaskDelayAnalyzer,
    CoarseTimers.CodeFixes.Fixes.TaskDelayCodeFixProvider>;

namespace CoarseTimers.Analyzers.Tests.Rules;

public partial class TaskDelayTests
{
    [Fact]
    public Task Every_overload_keeps_its_arguments() => Verify.VerifyAsync(
        """
        using System;
        using System.Threading;
        using System.Threading.Tasks;

        class C
        {
            async Task M(CancellationToken token)
            {
                await {|CT0001:Task.Delay(5)|};
                await {|CT0001:Task.Delay(TimeSpan.FromMilliseconds(5))|};
                await {|CT0001:Task.Delay(5, token)|};
                await {|CT0001:Task.Delay(TimeSpan.FromMilliseconds(5), token)|};
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
            async Task M(CancellationToken token)
            {
                await CoarseTimer.Delay(5);
                await CoarseTimer.Delay(TimeSpan.FromMilliseconds(5));
                await CoarseTimer.Delay(5, token);
                await CoarseTimer.Delay(TimeSpan.FromMilliseconds(5), token);
            }
        }
        """);

    [Fact]
    public Task Named_arguments_configure_await_and_comments_are_kept() => Verify.VerifyAsync(
        """
        using System.Threading;
        using System.Threading.Tasks;

        class C
        {
            async Task M(CancellationToken token)
            {
                // pace the poll
                await /* before */ {|CT0001:Task.Delay(cancellationToken: token, millisecondsDelay: 5)|}.ConfigureAwait(false); // after
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
                // pace the poll
                await /* before */ CoarseTimer.Delay(cancellationToken: token, millisecondsDelay: 5).ConfigureAwait(false); // after
            }
        }
        """);

    [Fact]
    public Task Using_static_and_fully_qualified_calls() => Verify.VerifyAsync(
        """
        using static System.Threading.Tasks.Task;

        class C
        {
            async System.Threading.Tasks.Task M()
            {
                await {|CT0001:Delay(5)|};
                await {|CT0001:System.Threading.Tasks.Task.Delay(6)|};
            }
        }
        """,
        """
        using CoarseTimers;
        using static System.Threading.Tasks.Task;

        class C
        {
            async System.Threading.Tasks.Task M()
            {
                await CoarseTimer.Delay(5);
                await CoarseTimer.Delay(6);
            }
        }
        """);

    [Fact]
    public Task Delays_inside_WhenAny_in_a_loop() => Verify.VerifyAsync(
        """
        using System.Threading.Tasks;

        class C
        {
            async Task M(Task work)
            {
                while (!work.IsCompleted)
                {
                    await Task.WhenAny(work, {|CT0001:Task.Delay(100)|}, Task.WhenAny({|CT0001:Task.Delay(200)|}));
                }
            }
        }
        """,
        """
        using System.Threading.Tasks;
        using CoarseTimers;

        class C
        {
            async Task M(Task work)
            {
                while (!work.IsCompleted)
                {
                    await Task.WhenAny(work, CoarseTimer.Delay(100), Task.WhenAny(CoarseTimer.Delay(200)));
                }
            }
        }
        """);

    [Fact]
    public Task Using_goes_inside_the_namespace_when_the_file_puts_them_there() => Verify.VerifyAsync(
        """
        namespace N
        {
            using System.Threading.Tasks;

            class C
            {
                Task M() => {|CT0001:Task.Delay(5)|};
            }
        }
        """,
        """
        namespace N
        {
            using System.Threading.Tasks;
            using CoarseTimers;

            class C
            {
                Task M() => CoarseTimer.Delay(5);
            }
        }
        """);

    [Fact]
    public async Task File_scoped_namespace_and_sorted_usings()
    {
        var test = Verify.Create(
            """
            using System.Threading.Tasks;
            using Zeta;

            namespace N;

            class C
            {
                Task M() => {|CT0001:Task.Delay(Z.Milliseconds)|};
            }
            """,
            """
            using System.Threading.Tasks;
            using CoarseTimers;
            using Zeta;

            namespace N;

            class C
            {
                Task M() => CoarseTimer.Delay(Z.Milliseconds);
            }
            """);
        const string zeta = "namespace Zeta;\n\npublic static class Z\n{\n    public const int Milliseconds = 5;\n}\n";
        test.TestState.Sources.Add(("/Zeta.cs", zeta));
        test.FixedState.Sources.Add(("/Zeta.cs", zeta));
        await test.RunAsync();
    }

    [Fact]
    public Task Existing_using_is_not_repeated() => Verify.VerifyAsync(
        """
        using System.Threading.Tasks;
        using CoarseTimers;

        class C
        {
            Task M() => {|CT0001:Task.Delay(5)|};
        }
        """,
        """
        using System.Threading.Tasks;
        using CoarseTimers;

        class C
        {
            Task M() => CoarseTimer.Delay(5);
        }
        """);

    [Fact]
    public async Task Global_using_is_respected()
    {
        var test = Verify.Create(
            """
            using System.Threading.Tasks;

            class C
            {
                Task M() => {|CT0001:Task.Delay(5)|};
            }
            """,
            """
            using System.Threading.Tasks;

            class C
            {
                Task M() => CoarseTimer.Delay(5);
            }
            """);
        test.TestState.Sources.Add(("/Usings.cs", "global using CoarseTimers;\n"));
        test.FixedState.Sources.Add(("/Usings.cs", "global using CoarseTimers;\n"));
        await test.RunAsync();
    }

    [Fact]
    public Task Name_that_would_clash_stays_qualified() => Verify.VerifyAsync(
        """
        using System.Threading.Tasks;

        class CoarseTimer
        {
        }

        class C
        {
            Task M() => {|CT0001:Task.Delay(5)|};
        }
        """,
        """
        using System.Threading.Tasks;

        class CoarseTimer
        {
        }

        class C
        {
            Task M() => CoarseTimers.CoarseTimer.Delay(5);
        }
        """);

    [Fact]
    public Task Namespace_that_would_clash_is_global_qualified() => Verify.VerifyAsync(
        """
        using System.Threading.Tasks;

        namespace App
        {
            class CoarseTimers
            {
            }

            class CoarseTimer
            {
            }

            class C
            {
                Task M() => {|CT0001:Task.Delay(5)|};
            }
        }
        """,
        """
        using System.Threading.Tasks;

        namespace App
        {
            class CoarseTimers
            {
            }

            class CoarseTimer
            {
            }

            class C
            {
                Task M() => global::CoarseTimers.CoarseTimer.Delay(5);
            }
        }
        """);

    [Fact]
    public Task A_file_without_using_directives_keeps_its_first_line_when_the_names_stay_qualified() => Verify.VerifyAsync(
        """
        namespace App
        {
            class CoarseTimer
            {
            }

            class C
            {
                System.Threading.Tasks.Task M() => {|CT0001:System.Threading.Tasks.Task.Delay(5)|};
            }
        }
        """,
        """
        namespace App
        {
            class CoarseTimer
            {
            }

            class C
            {
                System.Threading.Tasks.Task M() => CoarseTimers.CoarseTimer.Delay(5);
            }
        }
        """);

    [Fact]
    public Task A_property_local_or_parameter_called_CoarseTimers_is_not_taken_for_the_namespace() => Verify.VerifyAsync(
        """
        using System.Threading;
        using System.Threading.Tasks;

        class CoarseTimer
        {
        }

        class C
        {
            private bool CoarseTimers { get; } = true; // a feature flag

            async Task M(CancellationToken ct)
            {
                if (CoarseTimers) { }
                await {|CT0001:Task.Delay(5, ct)|};
            }

            Task N(int CoarseTimers) => {|CT0001:Task.Delay(CoarseTimers)|};
        }
        """,
        """
        using System.Threading;
        using System.Threading.Tasks;

        class CoarseTimer
        {
        }

        class C
        {
            private bool CoarseTimers { get; } = true; // a feature flag

            async Task M(CancellationToken ct)
            {
                if (CoarseTimers) { }
                await global::CoarseTimers.CoarseTimer.Delay(5, ct);
            }

            Task N(int CoarseTimers) => global::CoarseTimers.CoarseTimer.Delay(CoarseTimers);
        }
        """);

    [Fact]
    public async Task Top_level_statements()
    {
        var test = Verify.Create(
            """
            using System.Threading.Tasks;

            for (var i = 0; i < 3; i++)
            {
                await {|CT0001:Task.Delay(5)|};
            }
            """,
            """
            using System.Threading.Tasks;
            using CoarseTimers;

            for (var i = 0; i < 3; i++)
            {
                await CoarseTimer.Delay(5);
            }
            """);
        test.TestState.OutputKind = Microsoft.CodeAnalysis.OutputKind.ConsoleApplication;
        await test.RunAsync();
    }

    [Fact]
    public Task Not_offered_without_the_runtime() => Verify.VerifyNotOfferedAsync(
        """
        using System.Threading.Tasks;

        class C
        {
            Task M() => {|CT0001:Task.Delay(5)|};
        }
        """,
        referenceRuntime: false);
}
