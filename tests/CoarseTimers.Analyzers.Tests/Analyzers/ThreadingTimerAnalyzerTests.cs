using System.Threading.Tasks;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.Testing;
using Xunit;
using Verify = CoarseTimers.Analyzers.Tests.Infrastructure.AnalyzerVerifier<CoarseTimers.Analyzers.Rules.ThreadingTimerAnalyzer>;

namespace CoarseTimers.Analyzers.Tests.Rules;

public partial class ThreadingTimerTests
{
    private static DiagnosticResult Expected(string reason) =>
        new DiagnosticResult(DiagnosticIds.ThreadingTimer, DiagnosticSeverity.Warning).WithLocation(0).WithArguments(reason);

    [Theory]
    [InlineData("for (var i = 0; i < 3; i++) { using var t = {|#0:new Timer(_ => { }, null, 100, -1)|}; }")]
    [InlineData("foreach (var x in new[] { 1 }) { using var t = {|#0:new Timer(_ => { })|}; }")]
    [InlineData("for (;;) { using Timer t = {|#0:new(_ => { }, null, TimeSpan.FromMilliseconds(100), Timeout.InfiniteTimeSpan)|}; }")]
    [InlineData("for (;;) { using var t = {|#0:new Timer(_ => { }, null, 100L, -1L)|}; }")]
    [InlineData("for (;;) { using var t = {|#0:new Timer(_ => { }, null, 100u, uint.MaxValue)|}; }")]
    public Task Every_constructor_in_a_loop_is_flagged(string body) =>
        Verify.VerifyAsync(Wrap(body), Expected("inside a loop"));

    [Theory]
    [InlineData("using var t = new Timer(_ => { }, null, 100, -1);")]
    [InlineData("for (;;) { using var t = new Timer(_ => { }, null, TimeSpan.FromMinutes(1), TimeSpan.FromMinutes(1)); }")]
    [InlineData("Func<Timer> make = () => new Timer(_ => { }); for (;;) { make().Dispose(); }")]
    public Task Cold_sites_and_paced_loops_are_not_flagged(string body) =>
        Verify.VerifyAsync(Wrap(body));

    [Fact]
    public Task Declared_hot_type_flags_per_connection_timers() =>
        Verify.VerifyAsync("""
            using System.Threading;

            [CoarseTimers.HotPath]
            sealed class Connection
            {
                private readonly Timer _keepAlive;
                public Connection() => _keepAlive = {|#0:new Timer(_ => { }, null, 60_000, 60_000)|};
            }
            """, Expected("declared hot path"));

    [Fact]
    public Task A_user_Timer_class_is_not_flagged() =>
        Verify.VerifyAsync("""
            class Timer { public Timer(System.Action a) { } }

            class C
            {
                void M() { for (;;) { _ = new Timer(() => { }); } }
            }
            """);

    private static string Wrap(string body) => $$"""
        using System;
        using System.Threading;

        class C
        {
            void M()
            {
                {{body}}
            }
        }
        """;
}
