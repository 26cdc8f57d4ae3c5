using System.Threading.Tasks;
using Xunit;
using VerifyDelay = CoarseTimers.Analyzers.Tests.CodeFixes.FixTest<
    CoarseTimers.Analyzers.Rules.TaskDelayAnalyzer,
    CoarseTimers.CodeFixes.Fixes.TaskDelayCodeFixProvider>;
using VerifyTimer = CoarseTimers.Analyzers.Tests.CodeFixes.FixTest<
    CoarseTimers.Analyzers.Rules.ThreadingTimerAnalyzer,
    CoarseTimers.CodeFixes.Fixes.ThreadingTimerCodeFixProvider>;

namespace CoarseTimers.Analyzers.Tests.CodeFixes;

/// <summary>
/// A fix adds <c>using CoarseTimers;</c> only when every name already in the file keeps its binding: a user's own type
/// that shares a name with a public runtime type, imported through a using directive or a global using, would become
/// ambiguous (CS0104). Each run checks one fix at a time and Fix All, and that the fixed code compiles.
/// </summary>
public class ImportTests
{
    /// <summary>Every public type of the runtime, and how a file would name the user's type of that name.</summary>
    public static TheoryData<string, string> RuntimeTypeNames => new()
    {
        { "CoarseTimer", "CoarseTimer" },
        { "CoarseCancellationTokenSource", "CoarseCancellationTokenSource" },
        { "CoarseTimeProvider", "CoarseTimeProvider" },
        { "CoarseTimerOptions", "CoarseTimerOptions" },
        { "CoarseTimeout", "CoarseTimeout" },
        { "SpinThenBlock", "SpinThenBlock" },
        { "WaitableCondition", "WaitableCondition" },
        { "HotPathAttribute", "HotPath" },
        { "HotPathAttribute", "HotPathAttribute" },
    };

    [Theory]
    [MemberData(nameof(RuntimeTypeNames))]
    public Task A_users_type_imported_in_the_same_file_keeps_its_binding(string typeName, string usedAs) => VerifyDelay.VerifyAsync(
        $$"""
        using System.Threading.Tasks;
        using Acme.Perf;

        namespace Acme.Perf
        {
            public sealed class {{typeName}} : System.Attribute { }
        }

        class C
        {
            [{{usedAs}}]
            async Task M()
            {
                await {|CT0001:Task.Delay(1)|};
                await {|CT0001:Task.Delay(2)|};
            }
        }
        """,
        $$"""
        using System.Threading.Tasks;
        using Acme.Perf;

        namespace Acme.Perf
        {
            public sealed class {{typeName}} : System.Attribute { }
        }

        class C
        {
            [{{usedAs}}]
            async Task M()
            {
                await CoarseTimers.CoarseTimer.Delay(1);
                await CoarseTimers.CoarseTimer.Delay(2);
            }
        }
        """);

    [Theory]
    [MemberData(nameof(RuntimeTypeNames))]
    public Task A_users_type_imported_by_a_global_using_keeps_its_binding(string typeName, string usedAs)
    {
        var declaration = $$"""
            global using Acme.Perf;

            namespace Acme.Perf
            {
                public sealed class {{typeName}} : System.Attribute { }
            }
            """;
        var test = VerifyDelay.Create(
            $$"""
            using System.Threading.Tasks;

            class C
            {
                [{{usedAs}}]
                Task M() => {|CT0001:Task.Delay(1)|};

                Task N() => {|CT0001:Task.Delay(2)|};
            }
            """,
            $$"""
            using System.Threading.Tasks;

            class C
            {
                [{{usedAs}}]
                Task M() => CoarseTimers.CoarseTimer.Delay(1);

                Task N() => CoarseTimers.CoarseTimer.Delay(2);
            }
            """);
        test.TestState.Sources.Add(("/Acme.cs", declaration));
        test.FixedState.Sources.Add(("/Acme.cs", declaration));
        return test.RunAsync();
    }

    [Fact]
    public Task A_users_type_declared_in_the_enclosing_namespace_still_wins_so_the_import_is_added() => VerifyDelay.VerifyAsync(
        """
        using System.Threading.Tasks;

        namespace Acme.Perf
        {
            public sealed class HotPathAttribute : System.Attribute { }

            class C
            {
                [HotPath]
                Task M() => {|CT0001:Task.Delay(1)|};
            }
        }
        """,
        """
        using System.Threading.Tasks;
        using CoarseTimers;

        namespace Acme.Perf
        {
            public sealed class HotPathAttribute : System.Attribute { }

            class C
            {
                [HotPath]
                Task M() => CoarseTimer.Delay(1);
            }
        }
        """);

    [Fact]
    public Task The_runtime_type_the_fix_writes_is_qualified_when_the_user_has_one_of_that_name() => VerifyTimer.VerifyAsync(
        """
        using System;
        using System.Threading;
        using Acme;

        namespace Acme
        {
            public static class SpinThenBlock { public static void Wait() { } }
        }

        class C
        {
            void M()
            {
                SpinThenBlock.Wait();
                using var t = {|CT0003:new Timer(_ => { }, null, 10, Timeout.Infinite)|};
            }
        }
        """,
        """
        using System;
        using System.Threading;
        using Acme;

        namespace Acme
        {
            public static class SpinThenBlock { public static void Wait() { } }
        }

        class C
        {
            void M()
            {
                SpinThenBlock.Wait();
                using var t = new CoarseTimers.CoarseTimer(_ => { }, null, 10, Timeout.Infinite);
            }
        }
        """);
}
