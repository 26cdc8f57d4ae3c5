using System.Threading.Tasks;
using CoarseTimers.Analyzers.Rules;
using CoarseTimers.Analyzers.Tests.Infrastructure;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.Testing;
using Xunit;
using Verify = CoarseTimers.Analyzers.Tests.Infrastructure.AnalyzerVerifier<CoarseTimers.Analyzers.Rules.TaskDelayAnalyzer>;

namespace CoarseTimers.Analyzers.Tests.Rules;

public partial class TaskDelayTests
{
    private static DiagnosticResult Expected(string reason, int location = 0) =>
        new DiagnosticResult(DiagnosticIds.TaskDelay, DiagnosticSeverity.Warning).WithLocation(location).WithArguments(reason);

    [Theory]
    [InlineData("for (var i = 0; i < 3; i++) { await {|#0:Task.Delay(5)|}; }")]
    [InlineData("foreach (var x in new[] { 1 }) { await {|#0:Task.Delay(5)|}; }")]
    [InlineData("while (true) { await {|#0:Task.Delay(5)|}; }")]
    [InlineData("do { await {|#0:Task.Delay(TimeSpan.FromMilliseconds(5), CancellationToken.None)|}; } while (true);")]
    [InlineData("await foreach (var x in Items()) { await {|#0:Task.Delay(5)|}; }")]
    [InlineData("for (;;) { Func<Task> f = async () => await {|#0:Task.Delay(5)|}; await f(); }")]
    [InlineData("for (;;) { await Local(); async Task Local() => await {|#0:Task.Delay(5)|}; }")]
    [InlineData("for (var i = 0; i < 3; i++) { await {|#0:Task.Delay(millisecondsDelay: 5, cancellationToken: default)|}; }")]
    public Task Short_polling_delays_in_loops_are_hot(string body) =>
        Verify.VerifyAsync(Wrap(body), Expected("short polling delay in a loop"));

    [Theory]
    [InlineData("foreach (var x in new[] { 1 }) { await Task.Delay(x); }")]
    [InlineData("for (var i = 0; i < 3; i++) { await Task.Delay(_interval); }")]
    [InlineData("for (var i = 0; i < 3; i++) { await Task.Delay(TimeSpan.FromMilliseconds(_options.PollMs)); }")]
    [InlineData("for (var i = 0; i < 3; i++) { try { await Work(); return; } catch (InvalidOperationException) { } await Task.Delay(5); }")]
    [InlineData("try { await Work(); } catch (Exception) { for (var i = 0; i < 3; i++) { await Task.Delay(5); } }")]
    [InlineData("for (;;) { await Task.Delay(Timeout.Infinite); }")]
    [InlineData("for (;;) { await Task.Delay(Timeout.InfiniteTimeSpan, CancellationToken.None); }")]
    public Task Configured_backoff_failure_path_and_infinite_delays_are_not_hot(string body) =>
        Verify.VerifyAsync(Wrap(body));

    [Theory]
    [InlineData("for (;;) { await Task.Delay(0); }")]
    [InlineData("for (;;) { await Task.Delay(TimeSpan.Zero, CancellationToken.None); }")]
    [InlineData("for (;;) { await Task.Delay(TimeSpan.FromMilliseconds(0)); }")]
    [InlineData("await Task.WhenAny(Work(), Task.Delay(0));")]
    public Task Zero_delays_are_completed_tasks_and_never_flagged(string body) =>
        Verify.VerifyAsync(Wrap(body));

    [Fact]
    public Task A_timeout_parameter_that_every_caller_passes_as_infinite_queues_no_timer() =>
        Verify.VerifyAsync("""
            using System;
            using System.Threading;
            using System.Threading.Tasks;

            class ResetEvent
            {
                private readonly TaskCompletionSource<bool> _set = new();

                public async Task<bool> WaitAsync(TimeSpan timeout, CancellationToken token)
                {
                    var delay = Task.Delay(timeout, token);
                    return await Task.WhenAny(_set.Task, delay) == _set.Task;
                }

                public async Task<bool> WaitOrTimeOutAsync(TimeSpan timeout) =>
                    await Task.WhenAny(_set.Task, {|#0:Task.Delay(timeout)|}) == _set.Task;

                public async Task<bool> WaitOrDefaultAsync(TimeSpan timeout)
                {
                    if (timeout == Timeout.InfiniteTimeSpan) { timeout = TimeSpan.FromSeconds(30); }
                    return await Task.WhenAny(_set.Task, {|#1:Task.Delay(timeout)|}) == _set.Task;
                }
            }

            class LeaseManager
            {
                async Task HoldLease(ResetEvent released)
                {
                    await released.WaitAsync(Timeout.InfiniteTimeSpan, CancellationToken.None);
                    await released.WaitAsync(TimeSpan.FromMilliseconds(-1), default);
                    await released.WaitOrTimeOutAsync(Timeout.InfiniteTimeSpan);
                    await released.WaitOrTimeOutAsync(TimeSpan.FromSeconds(5));
                    await released.WaitOrDefaultAsync(Timeout.InfiniteTimeSpan);
                }
            }
            """,
            Expected("per-operation timeout"),
            new DiagnosticResult(DiagnosticIds.TaskDelay, DiagnosticSeverity.Warning).WithLocation(1).WithArguments("per-operation timeout"));

    [Theory]
    [InlineData("while (_stopping.CanBeCanceled) { {|#0:Task.Delay(50)|}; }")]
    [InlineData("for (var i = 0; i < 3; i++) { _ = {|#0:Task.Delay(_interval)|}; }")]
    public Task A_dropped_delay_in_a_loop_waits_for_nothing_and_queues_a_timer_per_turn(string body) =>
        Verify.VerifyAsync(Wrap(body), Expected("inside a loop"));

    [Theory]
    [InlineData("Task.Delay(100);")]
    [InlineData("for (var i = 0; i < 3; i++) { Task.Delay(50).Wait(); }")]
    [InlineData("for (var i = 0; i < 3; i++) { Task.Delay(50).GetAwaiter().GetResult(); }")]
    public Task A_dropped_delay_outside_loops_and_blocking_waits_in_loops_are_not_hot(string body) =>
        Verify.VerifyAsync(Wrap(body));

    [Fact]
    public Task The_shortest_delay_that_queues_a_timer_still_polls() =>
        Verify.VerifyAsync(Wrap("for (;;) { await {|#0:Task.Delay(1)|}; }"), Expected("short polling delay in a loop"));

    [Theory]
    [InlineData("StartAsync")]
    [InlineData("StopAndDrainAsync")]
    [InlineData("WaitUntilReadyAsync")]
    [InlineData("DisposeAsync")]
    [InlineData("ConnectAsync")]
    public Task Lifecycle_members_are_cold(string name) =>
        Verify.VerifyAsync(Wrap("await Task.WhenAny(Work(), Task.Delay(100)); for (var i = 0; i < 3; i++) { await Task.Delay(5); }").Replace("async Task M()", $"async Task {name}()"));

    [Fact]
    public Task Lifecycle_is_read_from_the_last_word_of_the_name() =>
        Verify.VerifyAsync(Wrap("await Task.WhenAny(Work(), {|#0:Task.Delay(100)|});").Replace("async Task M()", "async Task StartTimeoutAsync()"), Expected("per-operation timeout"));

    [Fact]
    public Task Test_support_types_and_test_assemblies_are_cold()
    {
        var type = Verify.VerifyAsync(Wrap("await Task.WhenAny(Work(), Task.Delay(100));").Replace("class C", "class ClusterTests"));
        var assembly = new AnalyzerVerifier<TaskDelayAnalyzer> { TestCode = Wrap("await Task.WhenAny(Work(), Task.Delay(100));") };
        assembly.SolutionTransforms.Add((solution, projectId) => solution.WithProjectAssemblyName(projectId, "Contoso.Orders.UnitTests"));
        var production = new AnalyzerVerifier<TaskDelayAnalyzer> { TestCode = Wrap("await Task.WhenAny(Work(), {|#0:Task.Delay(100)|});") };
        production.SolutionTransforms.Add((solution, projectId) => solution.WithProjectAssemblyName(projectId, "Contoso.Testimonials"));
        production.ExpectedDiagnostics.Add(Expected("per-operation timeout"));
        return Task.WhenAll(type, assembly.RunAsync(), production.RunAsync());
    }

    [Theory]
    [InlineData("Aspire.Cli", false)]
    [InlineData("Contoso.Cli.Tool", false)]
    [InlineData("contoso-cli", false)]
    [InlineData("Contoso.Client", true)] // words, not prefixes: a client library runs per operation
    [InlineData("Contoso.Clients.Cli2", true)]
    [InlineData("Contoso.Samples", false)] // samples and demos, run by hand
    [InlineData("ImapClientDemo", false)]
    [InlineData("ConsoleSample", false)]
    [InlineData("Orders.Example.Api", false)]
    [InlineData("Contoso.Sampling", true)] // words, not prefixes: a sampling library runs per operation
    [InlineData("Contoso.Demographics", true)]
    [InlineData("Contoso.AudioSamples", true)] // a plural ending a longer segment names what a product handles
    [InlineData("OpenIddict.Sandbox.WinForms.Client", false)] // a program to try the library by hand
    [InlineData("Contoso.PayPalSandboxClient", true)] // a whole segment only: a client of a payment sandbox
    public Task Command_line_tools_and_samples_are_cold(string assemblyName, bool flagged)
    {
        var test = new AnalyzerVerifier<TaskDelayAnalyzer>
        {
            TestCode = Wrap(flagged ? "await Task.WhenAny(Work(), {|#0:Task.Delay(100)|});" : "await Task.WhenAny(Work(), Task.Delay(100));"),
        };
        test.SolutionTransforms.Add((solution, projectId) => solution.WithProjectAssemblyName(projectId, assemblyName));
        if (flagged)
        {
            test.ExpectedDiagnostics.Add(Expected("per-operation timeout"));
        }

        return test.RunAsync();
    }

    [Theory]
    [InlineData("Hazelcast.Examples.Client", false)] // samples shipped in a namespace of their own, whatever the assembly
    [InlineData("Contoso.Samples", false)]
    [InlineData("Contoso.Demo.Orders", false)]
    [InlineData("Contoso.Sampling", true)] // whole segments only
    [InlineData("Contoso.AudioSamples", true)]
    [InlineData("Contoso.Orders.ExampleData", true)]
    public Task Sample_namespaces_are_cold(string ns, bool flagged) =>
        flagged
            ? Verify.VerifyAsync($"namespace {ns} {{ " + Wrap("await Task.WhenAny(Work(), {|#0:Task.Delay(100)|});") + " }", Expected("per-operation timeout"))
            : Verify.VerifyAsync($"namespace {ns} {{ " + Wrap("await Task.WhenAny(Work(), Task.Delay(100));") + " }");

    [Theory]
    [InlineData("/home/dev/demo/contoso-orders/src/Orders/Handler.cs")] // a checkout under a folder of that name
    [InlineData(@"C:\Samples\Contoso\src\Orders\Handler.cs")]
    [InlineData("/repo/src/Lims.Api/Features/Samples/Handler.cs")] // a domain folder
    public Task Folder_names_do_not_make_code_a_sample(string path)
    {
        var test = new AnalyzerVerifier<TaskDelayAnalyzer>();
        test.TestState.Sources.Add((path, Wrap("await Task.WhenAny(Work(), {|#0:Task.Delay(100)|});")));
        test.ExpectedDiagnostics.Add(Expected("per-operation timeout"));
        return test.RunAsync();
    }

    [Fact]
    public Task Test_support_namespaces_and_test_framework_assemblies_are_cold()
    {
        // A test harness shipped inside a production assembly (MassTransit.Testing) and test-kit assemblies.
        var testingNamespace = Verify.VerifyAsync(
            "namespace Contoso.Bus.Testing { " + Wrap("await Task.WhenAny(Work(), Task.Delay(100));") + " }");
        var testingLookalike = Verify.VerifyAsync(
            "namespace Contoso.Testimonials { " + Wrap("await Task.WhenAny(Work(), {|#0:Task.Delay(100)|});") + " }",
            Expected("per-operation timeout"));
        var framework = new AnalyzerVerifier<TaskDelayAnalyzer> { TestCode = Wrap("await Task.WhenAny(Work(), Task.Delay(100));") };
        framework.SolutionTransforms.Add((solution, projectId) => solution.WithProjectAssemblyName(projectId, "Contoso.Bus.TestFramework"));
        var kit = new AnalyzerVerifier<TaskDelayAnalyzer> { TestCode = Wrap("await Task.WhenAny(Work(), Task.Delay(100));") };
        kit.SolutionTransforms.Add((solution, projectId) => solution.WithProjectAssemblyName(projectId, "Contoso.Actors.TestKit"));
        return Task.WhenAll(testingNamespace, testingLookalike, framework.RunAsync(), kit.RunAsync());
    }

    [Theory]
    [InlineData("while (!_stopping.IsCancellationRequested) { await Task.WhenAny(Work(), Task.Delay(_interval)); }")]
    [InlineData("while (true) { await Task.WhenAny(Work(), Task.Delay(TimeSpan.FromSeconds(5))); }")]
    [InlineData("while (!_processExit.Task.IsCompleted) { await Task.WhenAny(_processExit.Task, Task.Delay(_interval)); }")]
    [InlineData("while (!_stopRequested) { await Task.WhenAny(Work(), Task.Delay(_interval)); }")]
    public Task A_race_that_paces_a_run_loop_is_pacing(string body) =>
        Verify.VerifyAsync(Wrap(body));

    [Fact]
    public Task A_partial_method_that_every_caller_calls_in_a_loop_polls_in_that_loop() =>
        Verify.VerifyAsync("""
            using System;
            using System.Threading.Tasks;

            partial class Poller
            {
                public async Task WaitAsync(Func<bool> done)
                {
                    while (!done())
                    {
                        await PollPlain();
                        await PollPartial();
                    }
                }

                private async Task PollPlain() { await {|#0:Task.Delay(5)|}; }
                private partial Task PollPartial();
                private partial async Task PollPartial() { await {|#1:Task.Delay(5)|}; }
            }
            """,
            Expected("short polling delay in a method its callers call in a loop", 0),
            Expected("short polling delay in a method its callers call in a loop", 1));

    [Fact]
    public Task A_race_in_a_loop_that_waits_for_its_own_reply_is_not_a_run_loop() =>
        Verify.VerifyAsync(Wrap("while (!_reply.Task.IsCompleted) { await Task.WhenAny(_reply.Task, {|#0:Task.Delay(100)|}); }"), Expected("inside a loop"));

    [Theory]
    [InlineData("await Task.Delay(5);")]
    [InlineData("Func<Task> f = async () => await Task.Delay(5); for (var i = 0; i < 3; i++) { await f(); }")]
    [InlineData("while (await Probe(Task.Delay(5))) { }")]
    [InlineData("for (;;) { await Task.Delay(TimeSpan.FromSeconds(30)); }")]
    [InlineData("for (;;) { await Task.Delay(1000); }")]
    [InlineData("for (;;) { await Task.Delay(new TimeSpan(0, 1, 0)); }")]
    [InlineData("for (;;) { await Task.Delay(TimeSpan.FromMinutes(1), CancellationToken.None); }")]
    [InlineData("for (;;) { await Task.Delay(TimeSpan.FromSeconds(1), TimeProvider.System); }")]
    public Task Cold_sites_and_pacing_loops_are_not_flagged(string body) =>
        Verify.VerifyAsync(Wrap(body));

    [Fact]
    public Task Polling_threshold_is_configurable() =>
        Verify.VerifyAsync(Wrap("for (;;) { await {|#0:Task.Delay(TimeSpan.FromSeconds(30))|}; }"), "coarse_timers.polling_threshold_ms = 60000", Expected("short polling delay in a loop"));

    [Theory]
    [InlineData("for (var i = 0; i < 3; i++) { await Task.Delay(16); }")]
    [InlineData("while (Work().IsCompleted) { await Task.Delay(100); }")]
    [InlineData("for (;;) { await Task.Delay(TimeSpan.FromMilliseconds(50)); }")]
    public Task A_sleep_of_a_clock_tick_or_more_paces_its_loop(string body) =>
        Verify.VerifyAsync(Wrap(body));

    [Fact]
    public Task A_sleep_in_a_loop_of_a_controller_or_hub_polls_per_request_below_the_pacing_threshold() =>
        Verify.VerifyAsync("""
            using System;
            using System.IO;
            using System.Threading;
            using System.Threading.Tasks;

            namespace Microsoft.AspNetCore.Mvc { public abstract class ControllerBase { } public abstract class Controller : ControllerBase { } }
            namespace Microsoft.AspNetCore.SignalR { public abstract class Hub { } }

            namespace Media
            {
                using Microsoft.AspNetCore.Mvc;
                using Microsoft.AspNetCore.SignalR;

                public class HlsController : Controller
                {
                    public async Task<bool> GetSegment(string path, CancellationToken token)
                    {
                        // Each request polls for its segment file.
                        while (!File.Exists(path))
                        {
                            await {|#0:Task.Delay(100, token)|};
                        }

                        return true;
                    }

                    // A second between polls or more paces, as anywhere else; a retry after a failure is backoff.
                    public async Task Watch(CancellationToken token)
                    {
                        while (!token.IsCancellationRequested)
                        {
                            await Task.Delay(TimeSpan.FromSeconds(5), token);
                        }
                    }

                    public async Task Retry(Func<Task> work)
                    {
                        for (var attempt = 0; attempt < 3; attempt++)
                        {
                            try { await work(); return; } catch (IOException) { await Task.Delay(200); }
                        }
                    }
                }

                public class ScoreHub : Hub
                {
                    public async Task WaitForScore(Func<bool> stored)
                    {
                        while (!stored())
                        {
                            await {|#1:Task.Delay(250)|};
                        }
                    }
                }

                // Not a controller: a 100 ms sleep paces its loop (the polling threshold is 16 ms).
                public class Worker
                {
                    public async Task Run(Func<bool> done)
                    {
                        while (!done())
                        {
                            await Task.Delay(100);
                        }
                    }
                }
            }
            """,
            new DiagnosticResult(DiagnosticIds.TaskDelay, DiagnosticSeverity.Warning).WithLocation(0).WithArguments("polling delay in a loop of a per-request controller or hub"),
            new DiagnosticResult(DiagnosticIds.TaskDelay, DiagnosticSeverity.Warning).WithLocation(1).WithArguments("polling delay in a loop of a per-request controller or hub"));

    // A MediatR handler runs once per request or notification: a sleep outside its loops is one timer per request, whatever
    // its length; not on a failure path (a pause before throwing), not in a lambda. A controller's or hub's sleep outside
    // its loops is not read as per request (the corpus' are admin, developer and failure-path pauses).
    [Fact]
    public Task A_sleep_in_a_mediatr_handler_runs_per_request_but_one_outside_loops_of_a_controller_or_hub_does_not() =>
        Verify.VerifyAsync("""
            using System;
            using System.Threading;
            using System.Threading.Tasks;

            namespace Microsoft.AspNetCore.Mvc { public abstract class ControllerBase { } public abstract class Controller : ControllerBase { } }
            namespace Microsoft.AspNetCore.SignalR { public abstract class Hub { } }
            namespace MediatR
            {
                public interface IRequest { }
                public interface IRequestHandler<in TRequest> { Task Handle(TRequest request, CancellationToken cancellationToken); }
                public interface INotificationHandler<in TNotification> { Task Handle(TNotification notification, CancellationToken cancellationToken); }
            }
            namespace Other { public interface IRequestHandler<in TRequest> { Task Handle(TRequest request, CancellationToken cancellationToken); } }

            namespace Shop
            {
                using Microsoft.AspNetCore.Mvc;
                using Microsoft.AspNetCore.SignalR;

                public record SetPaid(int OrderId) : MediatR.IRequest;
                public record OrderShipped(int OrderId);

                public class SetPaidHandler : MediatR.IRequestHandler<SetPaid>
                {
                    public async Task Handle(SetPaid request, CancellationToken cancellationToken)
                    {
                        await {|#0:Task.Delay(10_000, cancellationToken)|};
                    }
                }

                public class ShippedHandler : MediatR.INotificationHandler<OrderShipped>
                {
                    public Task Handle(OrderShipped notification, CancellationToken cancellationToken) => Pause(cancellationToken);

                    private static async Task Pause(CancellationToken token) => await {|#1:Task.Delay(50, token)|};
                }

                public class AccountsController : Controller
                {
                    public async Task<string> Throttled()
                    {
                        await Task.Delay(TimeSpan.FromMilliseconds(500));
                        return "ok";
                    }

                    // An anti-brute-force pause before failing the request: a failure path.
                    public async Task Verify(bool valid)
                    {
                        if (!valid)
                        {
                            await Task.Delay(2000);
                            throw new InvalidOperationException("verification failed");
                        }
                    }

                    // The same, when the success path returns from another branch first.
                    public async Task Delete(bool valid, bool done)
                    {
                        if (!valid)
                        {
                            await Task.Delay(2000);
                        }
                        else
                        {
                            if (done)
                            {
                                return;
                            }
                        }

                        throw new InvalidOperationException("not deleted");
                    }

                    private static async Task ThrowDelayedAsync(string message)
                    {
                        await Task.Delay(2000);
                        throw new InvalidOperationException(message);
                    }

                    // In a lambda: it may run later, once, or never per request.
                    public void Later() => _ = Task.Run(async () => await Task.Delay(100));
                }

                public class ChatHub : Hub
                {
                    public async Task Send(string message) => await Task.Delay(20);
                }

                // Not per request: a handler of another library's interface, and a plain service.
                public class Lookalike : Other.IRequestHandler<SetPaid>
                {
                    public async Task Handle(SetPaid request, CancellationToken cancellationToken) => await Task.Delay(10_000, cancellationToken);
                }

                public class Service
                {
                    public async Task Run() => await Task.Delay(500);
                }
            }
            """,
            Expected("sleep per request of a MediatR handler", 0),
            Expected("sleep per request of a MediatR handler", 1));

    [Fact]
    public Task A_sleep_in_a_mediatr_handler_is_per_request_with_mediatr_unresolved() =>
        Verify.VerifyAsync("""
            using System.Threading;
            using System.Threading.Tasks;
            using MediatR;

            public record SetPaid(int OrderId);

            public class SetPaidHandler : {|CS0246:IRequestHandler<SetPaid, bool>|}
            {
                public async Task<bool> Handle(SetPaid command, CancellationToken cancellationToken)
                {
                    await {|#0:Task.Delay(10000, cancellationToken)|};
                    return true;
                }
            }
            """.Replace("using MediatR;", "using {|CS0246:MediatR|};"),
            Expected("sleep per request of a MediatR handler"));

    // A race whose timeout throws: the site sits in the condition, and the body that returns is on its path.
    [Theory]
    [InlineData("var work = Work(); if (await Task.WhenAny(work, {|#0:Task.Delay(100)|}) == work) { return; } throw new TimeoutException();")]
    [InlineData("var work = Work(); if (await Task.WhenAny(work, {|#0:Task.Delay(100)|}) != work) { throw new TimeoutException(); } await work;")]
    public Task A_timeout_race_that_throws_when_it_loses_is_still_a_timeout(string body) =>
        Verify.VerifyAsync(Wrap(body), Expected("per-operation timeout"));

    [Theory]
    [InlineData("if (Work().IsFaulted) { await Task.Delay(5); throw new InvalidOperationException(); }", false)]
    [InlineData("if (Work().IsFaulted) { await Task.Delay(5); Console.WriteLine(); throw new InvalidOperationException(); }", false)]
    [InlineData("if (Work().IsFaulted) { { await Task.Delay(5); } throw new InvalidOperationException(); }", false)]
    [InlineData("if (Work().IsFaulted) { await {|#0:Task.Delay(5)|}; if (Work().IsCompleted) return; throw new InvalidOperationException(); }", true)]
    [InlineData("if (Work().IsFaulted) { await {|#0:Task.Delay(5)|}; continue; }", true)]
    [InlineData("await {|#0:Task.Delay(5)|};", true)]
    public Task A_sleep_the_code_after_which_always_throws_is_a_failure_path(string body, bool flagged) =>
        flagged
            ? Verify.VerifyAsync(Wrap("for (var i = 0; i < 10; i++) { " + body + " }"), Expected("short polling delay in a loop"))
            : Verify.VerifyAsync(Wrap("for (var i = 0; i < 10; i++) { " + body + " }"));

    // Reached only through a catch that falls through, after a try whose body always leaves: the wait before a retry.
    [Theory]
    [InlineData("try { await Work(); return; } catch (InvalidOperationException) { } await Task.WhenAny(Work(), Task.Delay(100));", false)]
    [InlineData("for (var i = 0; i < 3; i++) { try { await Work(); return; } catch (InvalidOperationException) { } await Task.WhenAny(Work(), Task.Delay(100)); }", false)]
    [InlineData("try { if (_stopRequested) { return; } else { throw new InvalidOperationException(); } } catch (InvalidOperationException) { } if (_stopRequested) { await Task.WhenAny(Work(), Task.Delay(100)); }", false)]
    [InlineData("for (var i = 0; i < 3; i++) { try { await Work(); break; } catch (InvalidOperationException) { } await Task.WhenAny(Work(), Task.Delay(100)); }", false)]
    [InlineData("try { await Work(); } catch (InvalidOperationException) { } await Task.WhenAny(Work(), {|#0:Task.Delay(100)|});", true)]
    [InlineData("try { if (_stopRequested) { return; } await Work(); } catch (InvalidOperationException) { } await Task.WhenAny(Work(), {|#0:Task.Delay(100)|});", true)]
    [InlineData("try { await Work(); return; } finally { _stopRequested = true; }", false)]
    [InlineData("Func<Task> attempt = async () => { try { await Work(); return; } catch (InvalidOperationException) { } }; await Task.WhenAny(attempt(), {|#0:Task.Delay(100)|});", true)]
    [InlineData("await Task.WhenAny(Work(), {|#0:Task.Delay(100)|}); try { await Work(); return; } catch (InvalidOperationException) { }", true)]
    public Task A_race_reached_only_after_a_caught_exception_is_a_failure_path(string body, bool flagged) =>
        flagged
            ? Verify.VerifyAsync(Wrap(body), Expected("per-operation timeout"))
            : Verify.VerifyAsync(Wrap(body));

    [Fact]
    public Task A_short_sleep_in_a_member_called_in_a_loop_of_every_caller_polls() =>
        Verify.VerifyAsync("""
            using System;
            using System.Threading;
            using System.Threading.Tasks;

            class Pump
            {
                async Task RunAsync(CancellationToken token)
                {
                    while (!token.IsCancellationRequested)
                    {
                        try { await PumpOnce(); } catch (Exception) { }
                    }
                }

                async Task PumpOnce()
                {
                    if (!await Receive()) { await {|#0:Task.Delay(10)|}; }
                }

                async Task Poll() { await Task.Delay(10); }
                async Task Once() => await Poll();
                async Task Many() { for (var i = 0; i < 3; i++) { await Poll(); } }

                async Task Idle() { await Task.Delay(100); }
                async Task Loop() { for (;;) { await Idle(); } }

                static Task<bool> Receive() => Task.FromResult(false);
            }
            """,
            new DiagnosticResult(DiagnosticIds.TaskDelay, DiagnosticSeverity.Warning).WithLocation(0).WithArguments("short polling delay in a method its callers call in a loop"));

    [Theory]
    [InlineData("Parallel.For(0, 10, i => {|#0:Task.Delay(5)|}.Wait());")]
    [InlineData("Parallel.ForEach(new[] { 1 }, i => {|#0:Task.Delay(i)|}.Wait());")]
    [InlineData("await Parallel.ForEachAsync(new[] { 1 }, async (i, ct) => await {|#0:Task.Delay(i, ct)|});")]
    [InlineData("new List<int> { 1 }.ForEach(i => {|#0:Task.Delay(i)|}.Wait());")]
    [InlineData("await Task.WhenAll(new[] { 1, 2 }.Select(async i => await {|#0:Task.Delay(i)|}));")]
    [InlineData("_ = new[] { 1 }.SelectMany(i => new[] { {|#0:Task.Delay(i)|} }).ToList();")]
    public Task Per_item_delegates_are_hot(string body) =>
        Verify.VerifyAsync(Wrap(body), Expected("per-item delegate"));

    [Fact]
    public Task Where_is_not_a_per_item_delegate() =>
        Verify.VerifyAsync(Wrap("_ = new[] { 1 }.Where(i => Task.Delay(i).IsCompleted).ToList();"));

    [Theory]
    [InlineData("await Task.WhenAny(Work(), {|#0:Task.Delay(100)|});")]
    [InlineData("await Task.WhenAny(new[] { Work(), {|#0:Task.Delay(TimeSpan.FromSeconds(5))|} });")]
    [InlineData("var timeout = {|#0:Task.Delay(_interval)|}; await Task.WhenAny(Work(), timeout);")]
    [InlineData("var tasks = new List<Task> { Work() }; using (Task hedge = {|#0:Task.Delay(_interval)|}) { tasks.Add(hedge); await Task.WhenAny(tasks); }")]
    [InlineData("var tasks = new List<Task>(); tasks.Add({|#0:Task.Delay(100)|}); tasks.Add(Work()); var raced = tasks; await Task.WhenAny(raced);")]
    [InlineData("var tasks = new List<Task> { Work(), {|#0:Task.Delay(100)|} }; await Task.WhenAny(tasks);")]
    public Task Delay_in_WhenAny_is_a_per_operation_timeout(string body) =>
        Verify.VerifyAsync(Wrap(body), Expected("per-operation timeout"));

    [Theory]
    [InlineData("var tasks = new List<Task> { Work() }; tasks.Add(Task.Delay(100)); await Task.WhenAll(tasks);")] // awaited in full: a sleep
    [InlineData("var tasks = new List<Task> { Work(), Task.Delay(100) }; var other = new List<Task> { Work() }; await Task.WhenAny(other);")]
    public Task Delay_in_a_collection_that_is_not_raced_is_not_a_timeout(string body) =>
        Verify.VerifyAsync(Wrap(body));

    [Fact]
    public Task Per_operation_timeouts_can_be_switched_off() =>
        Verify.VerifyAsync(Wrap("await Task.WhenAny(Work(), Task.Delay(100));"), "coarse_timers.per_operation_timeouts = false");

    [Fact]
    public Task Declared_hot_path_on_member_or_type()
    {
        const string source = """
            using System.Threading.Tasks;
            using CoarseTimers;

            class C
            {
                [HotPath] Task M() => {|#0:Task.Delay(5)|};
            }

            [HotPath]
            class D
            {
                Task M() => {|#1:Task.Delay(5)|};
                int P { get { Task.Delay(1); return 0; } }
            }
            """;
        return Verify.VerifyAsync(source.Replace("Task.Delay(1);", "{|#2:Task.Delay(1)|};"),
            Expected("declared hot path"),
            new DiagnosticResult(DiagnosticIds.TaskDelay, DiagnosticSeverity.Warning).WithLocation(1).WithArguments("declared hot path"),
            new DiagnosticResult(DiagnosticIds.TaskDelay, DiagnosticSeverity.Warning).WithLocation(2).WithArguments("declared hot path"));
    }

    [Fact]
    public Task A_lambda_that_carries_the_mark_is_a_declared_hot_path_and_one_beside_it_is_not() =>
        Verify.VerifyAsync("""
            using System;
            using System.Threading.Tasks;

            sealed class HotPathAttribute : Attribute { }

            class Handlers
            {
                // Found by a probe: the mark on a lambda (C# 10) was not read.
                Func<Task> Marked() => [HotPath] async () => await {|#0:Task.Delay(2000)|};
                Func<Task> Unmarked() => async () => await Task.Delay(2000);
            }
            """,
            Expected("declared hot path"));

    [Fact]
    public Task Any_attribute_named_HotPath_and_configured_attributes_count()
    {
        const string source = """
            using System;
            using System.Threading.Tasks;

            namespace Mine
            {
                sealed class HotPathAttribute : Attribute { }
                sealed class PerRequestAttribute : Attribute { }

                class C
                {
                    [HotPath] Task A() => {|#0:Task.Delay(5)|};
                    [PerRequest] Task B() => {|#1:Task.Delay(5)|};
                    Task Cold() => Task.Delay(5);
                }
            }
            """;
        return Verify.VerifyAsync(source, "coarse_timers.hot_path_attributes = Mine.PerRequest",
            Expected("declared hot path"),
            new DiagnosticResult(DiagnosticIds.TaskDelay, DiagnosticSeverity.Warning).WithLocation(1).WithArguments("declared hot path"));
    }

    [Fact]
    public Task Scope_all_flags_everything_and_scope_declared_only_attributes()
    {
        var all = Verify.VerifyAsync(Wrap("await {|#0:Task.Delay(5)|};"), "coarse_timers.hot_path_scope = all", Expected("hot_path_scope = all"));
        var declared = Verify.VerifyAsync(Wrap("for (;;) { await Task.Delay(5); }"), "coarse_timers.hot_path_scope = declared");
        return Task.WhenAll(all, declared);
    }

    [Fact]
    public Task Rule_specific_option_wins_and_bad_values_fall_back()
    {
        var specific = Verify.VerifyAsync(Wrap("await Task.Delay(5); for (;;) { await Task.Delay(5); }"),
            "coarse_timers.hot_path_scope = all\ncoarse_timers.CT0001.hot_path_scope = declared");
        var bad = Verify.VerifyAsync(Wrap("for (var i = 0; i < 1; i++) { await {|#0:Task.Delay(5)|}; }"),
            "coarse_timers.hot_path_scope = sometimes\ncoarse_timers.pacing_threshold_ms = -5\ncoarse_timers.per_operation_timeouts = maybe",
            Expected("short polling delay in a loop"));
        return Task.WhenAll(specific, bad);
    }

    [Theory]
    [InlineData("100000000000000000000000")]
    [InlineData("+9223372036854775808")]
    [InlineData("9223372036854775807")]
    public Task A_threshold_too_large_for_a_long_is_the_largest_not_the_default(string huge) =>
        // Found by a probe: 9223372036854775808 fell back to the default 16 ms, so a 40 ms poll went unflagged.
        Verify.VerifyAsync(Wrap("for (;;) { await {|#0:Task.Delay(40)|}; }"), $"coarse_timers.polling_threshold_ms = {huge}", Expected("short polling delay in a loop"));

    [Fact]
    public Task Using_static_Delay_is_matched_by_symbol()
    {
        const string source = """
            using System.Threading.Tasks;
            using static System.Threading.Tasks.Task;

            class C
            {
                async Task M()
                {
                    for (;;) { await {|#0:Delay(5)|}; }
                }
            }
            """;
        return Verify.VerifyAsync(source, Expected("short polling delay in a loop"));
    }

    [Fact]
    public Task A_users_own_Delay_is_never_flagged()
    {
        const string source = """
            using System.Threading.Tasks;

            static class Task2 { public static System.Threading.Tasks.Task Delay(int ms) => System.Threading.Tasks.Task.CompletedTask; }

            namespace Other
            {
                class Task { public static System.Threading.Tasks.Task Delay(int ms) => System.Threading.Tasks.Task.CompletedTask; }

                class C
                {
                    async System.Threading.Tasks.Task M()
                    {
                        for (;;) { await Task.Delay(5); await Task2.Delay(5); }
                    }
                }
            }
            """;
        return Verify.VerifyAsync(source);
    }

    [Fact]
    public Task Test_projects_only_see_declared_and_scope_rules_unless_enabled()
    {
        var test = new AnalyzerVerifier<TaskDelayAnalyzer> { TestCode = Wrap("for (;;) { await Task.Delay(5); }") };
        test.TestState.AdditionalReferences.Add(TestFrameworkReference.Create("xunit.core"));
        var enabled = new AnalyzerVerifier<TaskDelayAnalyzer> { TestCode = Wrap("for (;;) { await {|#0:Task.Delay(5)|}; }") };
        enabled.TestState.AdditionalReferences.Add(TestFrameworkReference.Create("nunit.framework"));
        enabled.WithEditorConfig("coarse_timers.analyze_test_projects = true");
        enabled.ExpectedDiagnostics.Add(Expected("short polling delay in a loop"));
        return Task.WhenAll(test.RunAsync(), enabled.RunAsync());
    }

    [Fact]
    public Task Generated_code_is_skipped()
    {
        var test = new AnalyzerVerifier<TaskDelayAnalyzer>();
        test.TestState.Sources.Add(("Generated.g.cs", Wrap("for (;;) { await Task.Delay(5); }")));
        test.TestState.Sources.Add(("Other.cs", "// <auto-generated/>\n" + Wrap("for (;;) { await Task.Delay(5); }").Replace("class C", "class D")));
        return test.RunAsync();
    }

    [Fact]
    public Task Top_level_statements_entry_point_is_cold_but_its_loops_and_lambdas_are_not()
    {
        const string source = """
            using System;
            using System.Threading.Tasks;

            await Task.Delay(1);
            await Task.WhenAny(Task.CompletedTask, Task.Delay(100));
            for (var i = 0; i < 2; i++) { await {|#0:Task.Delay(1)|}; }
            Func<Task> handler = () => Task.WhenAny(Task.CompletedTask, {|#1:Task.Delay(100)|});
            await handler();
            """;
        var test = new AnalyzerVerifier<TaskDelayAnalyzer> { TestCode = source }.AsConsoleApplication();
        test.ExpectedDiagnostics.Add(Expected("short polling delay in a loop"));
        test.ExpectedDiagnostics.Add(new DiagnosticResult(DiagnosticIds.TaskDelay, DiagnosticSeverity.Warning).WithLocation(1).WithArguments("per-operation timeout"));
        return test.RunAsync();
    }

    internal static string Wrap(string body) => $$"""
        using System;
        using System.Collections.Generic;
        using System.Linq;
        using System.Threading;
        using System.Threading.Tasks;

        class C
        {
            private readonly TimeSpan _interval = TimeSpan.FromMilliseconds(5);
            private readonly (int PollMs, int Other) _options = (5, 0);
            private readonly CancellationToken _stopping = default;
            private readonly TaskCompletionSource<bool> _processExit = new();
            private readonly TaskCompletionSource<bool> _reply = new();
            private bool _stopRequested;

            async Task M()
            {
                {{body}}
            }

            static Task Work() => Task.CompletedTask;
            static Task<bool> Probe(Task t) => Task.FromResult(false);
            static async IAsyncEnumerable<int> Items() { yield return 1; await Task.CompletedTask; }
        }
        """;
}
