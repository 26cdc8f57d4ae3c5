using System.Threading.Tasks;
using Xunit;
using Verify = CoarseTimers.Analyzers.Tests.CodeFixes.FixTest<CoarseTimers.Analyzers.Rules.TaskDelayAnalyzer, CoarseTimers.CodeFixes.Fixes.TaskDelayCodeFixProvider>;

namespace CoarseTimers.Analyzers.Tests.Rules;

public partial class TaskDelayTests
{
    [Fact]
    public Task A_dropped_delay_in_a_loop_keeps_being_dropped() =>
        Verify.VerifyUnderDefaultModelAsync("""
            using System.IO;
            using System.Threading.Tasks;

            class Uploader
            {
                void Finish(Stream upload)
                {
                    while (upload.Position < upload.Length)
                    {
                        {|CT0001:Task.Delay(50)|};
                    }
                }
            }
            """, """
            using System.IO;
            using System.Threading.Tasks;
            using CoarseTimers;

            class Uploader
            {
                void Finish(Stream upload)
                {
                    while (upload.Position < upload.Length)
                    {
                        CoarseTimer.Delay(50);
                    }
                }
            }
            """);

    [Fact]
    public Task Every_overload_named_arguments_ConfigureAwait_and_comments() =>
        Verify.VerifyUnderDefaultModelAsync("""
            using System;
            using System.Threading;
            using System.Threading.Tasks;

            class C
            {
                async Task M(CancellationToken ct)
                {
                    for (var i = 0; i < 3; i++)
                    {
                        await {|CT0001:Task.Delay(5)|};
                        await {|CT0001:Task.Delay(TimeSpan.FromMilliseconds(5))|}.ConfigureAwait(false);
                        await {|CT0001:Task.Delay(5, ct)|};
                        await /* keep */ {|CT0001:Task.Delay(cancellationToken: ct, delay: TimeSpan.FromMilliseconds(2))|}; // trailing
                    }
                }
            }
            """, """
            using System;
            using System.Threading;
            using System.Threading.Tasks;
            using CoarseTimers;

            class C
            {
                async Task M(CancellationToken ct)
                {
                    for (var i = 0; i < 3; i++)
                    {
                        await CoarseTimer.Delay(5);
                        await CoarseTimer.Delay(TimeSpan.FromMilliseconds(5)).ConfigureAwait(false);
                        await CoarseTimer.Delay(5, ct);
                        await /* keep */ CoarseTimer.Delay(cancellationToken: ct, delay: TimeSpan.FromMilliseconds(2)); // trailing
                    }
                }
            }
            """);

    [Fact]
    public Task Using_static_and_WhenAny_and_file_scoped_namespace_with_usings_inside() =>
        Verify.VerifyUnderDefaultModelAsync("""
            namespace App
            {
                using System.Threading.Tasks;
                using static System.Threading.Tasks.Task;

                class C
                {
                    async Task M(Task work)
                    {
                        await Task.WhenAny(work, {|CT0001:Delay(100)|});
                    }
                }
            }
            """, """
            namespace App
            {
                using System.Threading.Tasks;
                using CoarseTimers;
                using static System.Threading.Tasks.Task;

                class C
                {
                    async Task M(Task work)
                    {
                        await Task.WhenAny(work, CoarseTimer.Delay(100));
                    }
                }
            }
            """);

    [Fact]
    public Task Existing_using_is_not_duplicated_and_clashing_names_stay_qualified() =>
        Verify.VerifyUnderDefaultModelAsync("""
            using System.Threading.Tasks;

            namespace App;

            class CoarseTimer { }

            class C
            {
                async Task M()
                {
                    while (true) { await {|CT0001:Task.Delay(5)|}; }
                }
            }
            """, """
            using System.Threading.Tasks;

            namespace App;

            class CoarseTimer { }

            class C
            {
                async Task M()
                {
                    while (true) { await CoarseTimers.CoarseTimer.Delay(5); }
                }
            }
            """);
}
