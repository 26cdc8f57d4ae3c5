using System.Threading.Tasks;
using Xunit;
using Verify = CoarseTimers.Analyzers.Tests.Infrastructure.AnalyzerVerifier<CoarseTimers.Analyzers.Rules.TimeoutCancellationTokenSourceAnalyzer>;

namespace CoarseTimers.Analyzers.Tests.Rules;

/// <summary>
/// Cold evidence from names: a member that handles a configuration change, sweeps expired items, probes, reads health or signs a person
/// in interactively; a callback
/// registered with a shutdown or exit hook.
/// </summary>
public partial class TimeoutCancellationTokenSourceTests
{
    [Fact]
    public Task Configuration_changes_expiry_sweeps_and_probes_are_cold() =>
        Verify.VerifyAsync("""
            using System.Threading;
            using System.Threading.Tasks;

            class Node
            {
                public virtual Task ConfigUpdatedAsync(object config) { using var cts = new CancellationTokenSource(2500); return Task.CompletedTask; }
                void OnConfigurationChanged() { using var cts = new CancellationTokenSource(2500); }
                void OnConfigurationAssigned() { using var cts = new CancellationTokenSource(2500); }
                void ListenForConfigChanges() { using var cts = new CancellationTokenSource(2500); }
                Task<int> DeleteExpiredPayloadsAsync() { using var cts = new CancellationTokenSource(2500); return Task.FromResult(0); }
                Task ProbeDestinationAsync() { using var cts = new CancellationTokenSource(2500); return Task.CompletedTask; }
                Task<string> GetHealthAsync() { using var cts = new CancellationTokenSource(2500); return Task.FromResult(""); }
                Task WaitUntilHealthyAsync() { using var cts = new CancellationTokenSource(2500); return Task.CompletedTask; }
                Task ReloadServiceEndpointsAsync() { using var cts = new CancellationTokenSource(2500); return Task.CompletedTask; }
                void OnCertificateReloading() { using var cts = new CancellationTokenSource(2500); }
                Task OnInitializedAsync() { using var cts = new CancellationTokenSource(1000); return Task.CompletedTask; }
                void OnPartitionsRevoked(int[] partitions) { using var cts = new CancellationTokenSource(10000); }
                Task OnRebalanceAsync() { using var cts = new CancellationTokenSource(10000); return Task.CompletedTask; }
            }
            """);

    [Fact]
    public Task Near_misses_of_those_names_stay_per_operation() =>
        Verify.VerifyAsync("""
            using System.Threading;

            class Orders
            {
                void UpdateOrder() { using var cts = {|#0:new CancellationTokenSource(2500)|}; }
                void ReadConfigValue() { using var cts = {|#1:new CancellationTokenSource(2500)|}; }
                void AssignOrder() { using var cts = {|#6:new CancellationTokenSource(2500)|}; }
                void CheckExpiry() { using var cts = {|#2:new CancellationTokenSource(2500)|}; }
                void PayInstallment() { using var cts = {|#3:new CancellationTokenSource(2500)|}; }
                void Preload() { using var cts = {|#5:new CancellationTokenSource(2500)|}; }
                void Revoke(string token) { using var cts = {|#7:new CancellationTokenSource(2500)|}; }
                void Healthcare() { using var cts = {|#8:new CancellationTokenSource(2500)|}; }

                // Per item of a sweep is still per item.
                void DeleteExpiredPayloads(int[] items) { foreach (var item in items) { using var cts = {|#4:new CancellationTokenSource(2500)|}; } }
            }
            """,
            Expected("new CancellationTokenSource(timeout)", "per-operation timeout", 0),
            Expected("new CancellationTokenSource(timeout)", "per-operation timeout", 1),
            Expected("new CancellationTokenSource(timeout)", "per-operation timeout", 2),
            Expected("new CancellationTokenSource(timeout)", "per-operation timeout", 3),
            Expected("new CancellationTokenSource(timeout)", "per-operation timeout", 4),
            Expected("new CancellationTokenSource(timeout)", "per-operation timeout", 5),
            Expected("new CancellationTokenSource(timeout)", "per-operation timeout", 6),
            Expected("new CancellationTokenSource(timeout)", "per-operation timeout", 7),
            Expected("new CancellationTokenSource(timeout)", "per-operation timeout", 8));

    [Fact]
    public Task Interactive_and_device_code_sign_ins_wait_on_a_person() =>
        Verify.VerifyAsync("""
            using System;
            using System.Threading;
            using System.Threading.Tasks;

            class AuthenticationProvider
            {
                Task AcquireTokenInteractiveDeviceFlowAsync()
                {
                    using var ctsInteractive = new CancellationTokenSource();
                    ctsInteractive.CancelAfter(180000);
                    using var ctsDeviceFlow = new CancellationTokenSource(TimeSpan.FromMinutes(3));
                    return Task.CompletedTask;
                }

                void SignInInteractive() { using var cts = new CancellationTokenSource(120_000); }
                void AcquireTokenWithDeviceCode() { using var cts = new CancellationTokenSource(120_000); }
            }
            """);

    [Fact]
    public Task Interactive_or_token_words_alone_stay_per_operation() =>
        Verify.VerifyAsync("""
            using System.Threading;

            class Store
            {
                // An interactive query is a read per request; a silent token acquisition runs per call that needs a token.
                void RunInteractiveQuery() { using var cts = {|#0:new CancellationTokenSource(2500)|}; }
                void AcquireTokenSilent() { using var cts = {|#1:new CancellationTokenSource(2500)|}; }
                void ReadDeviceCounters() { using var cts = {|#2:new CancellationTokenSource(2500)|}; }
            }
            """,
            Expected("new CancellationTokenSource(timeout)", "per-operation timeout", 0),
            Expected("new CancellationTokenSource(timeout)", "per-operation timeout", 1),
            Expected("new CancellationTokenSource(timeout)", "per-operation timeout", 2));

    [Fact]
    public Task Failure_handlers_and_lifecycle_phase_nouns_anywhere_in_a_name_are_cold() =>
        Verify.VerifyAsync("""
            using System;
            using System.Threading;
            using System.Threading.Tasks;

            class Provider
            {
                internal void HandleProviderError(Exception cause) { using var cts = new CancellationTokenSource(2500); }
                void OnConnectionFailure() { using var cts = new CancellationTokenSource(2500); }
                Task OnTimeoutExceptionAsync() { using var cts = new CancellationTokenSource(2500); return Task.CompletedTask; }
                void MarkFaulted() { using var cts = new CancellationTokenSource(2500); }
                Task RunShutdownHooksAsync() { using var cts = new CancellationTokenSource(2500); return Task.CompletedTask; }
                void ExecuteStartupTasks() { using var cts = new CancellationTokenSource(2500); }
                void RunWarmupRequests() { using var cts = new CancellationTokenSource(2500); }
            }
            """);

    [Fact]
    public Task A_member_that_builds_an_exception_is_a_failure_path_whatever_its_name() =>
        Verify.VerifyAsync("""
            using System;
            using System.Net.Http;
            using System.Threading;
            using System.Threading.Tasks;

            class ProtocolException : InvalidOperationException { }

            static class Responses
            {
                public static async Task<HttpRequestException> CreateWithBodyAsync(HttpResponseMessage response, CancellationToken token)
                {
                    using var cts = CancellationTokenSource.CreateLinkedTokenSource(token);
                    cts.CancelAfter(TimeSpan.FromSeconds(5));
                    var body = await response.Content.ReadAsStringAsync(cts.Token);
                    return new HttpRequestException(body);
                }

                public static ProtocolException Describe(int code)
                {
                    using var cts = new CancellationTokenSource(2500);
                    return new ProtocolException();
                }

                public static ValueTask<Exception> TranslateAsync(int code)
                {
                    using var cts = new CancellationTokenSource(2500);
                    return new ValueTask<Exception>(new TimeoutException());
                }
            }
            """);

    [Fact]
    public Task A_member_that_may_return_no_exception_or_returns_something_else_stays_per_operation() =>
        Verify.VerifyAsync("""
            #nullable enable
            using System;
            using System.Threading;
            using System.Threading.Tasks;

            class Validator
            {
                // Null when the request passes: runs on every request.
                ArgumentException? Validate(string request) { using var cts = {|#0:new CancellationTokenSource(2500)|}; return null; }

                Task<Exception?> CheckAsync(string request) { using var cts = {|#1:new CancellationTokenSource(2500)|}; return Task.FromResult<Exception?>(null); }

                #nullable disable
                Exception TryParse(string text) { using var cts = {|#2:new CancellationTokenSource(2500)|}; return text.Length > 0 ? null : new FormatException(); }
                #nullable enable

                Task<string> ReadAsync() { using var cts = {|#3:new CancellationTokenSource(2500)|}; return Task.FromResult(""); }
            }
            """,
            Expected("new CancellationTokenSource(timeout)", "per-operation timeout", 0),
            Expected("new CancellationTokenSource(timeout)", "per-operation timeout", 1),
            Expected("new CancellationTokenSource(timeout)", "per-operation timeout", 2),
            Expected("new CancellationTokenSource(timeout)", "per-operation timeout", 3));

    [Fact]
    public Task Error_or_phase_words_that_do_not_end_the_name_or_name_a_phase_stay_per_operation() =>
        Verify.VerifyAsync("""
            using System.Threading;

            class Client
            {
                void ExecuteWithErrorHandling() { using var cts = {|#0:new CancellationTokenSource(2500)|}; }
                void SendOrFail() { using var cts = {|#1:new CancellationTokenSource(2500)|}; }
                void ReportFailureCount() { using var cts = {|#2:new CancellationTokenSource(2500)|}; }

                // Per item of an error sweep is still per item.
                void RetryErrors(int[] items) { foreach (var item in items) { using var cts = {|#3:new CancellationTokenSource(2500)|}; } }
            }
            """,
            Expected("new CancellationTokenSource(timeout)", "per-operation timeout", 0),
            Expected("new CancellationTokenSource(timeout)", "per-operation timeout", 1),
            Expected("new CancellationTokenSource(timeout)", "per-operation timeout", 2),
            Expected("new CancellationTokenSource(timeout)", "per-operation timeout", 3));

    [Fact]
    public Task Callbacks_registered_with_shutdown_or_exit_hooks_are_cold_and_other_callbacks_are_not() =>
        Verify.VerifyAsync("""
            using System;
            using System.Threading;
            using System.Threading.Tasks;

            static class Application
            {
                public static void RegisterExitAction(Action<int> action) { }
                public static void OnStopping(Action action) { }
                public static void OnRequest(Action action) { }
                public static event EventHandler Exited;
                public static event EventHandler Received;
            }

            class Host
            {
                void Configure(CancellationTokenSource cts)
                {
                    Application.RegisterExitAction(code => cts.CancelAfter(TimeSpan.FromSeconds(1)));
                    Application.OnStopping(() => { using var grace = new CancellationTokenSource(5000); });
                    Application.Exited += (_, _) => cts.CancelAfter(1000);
                    Application.OnRequest(() => { using var timeout = {|#0:new CancellationTokenSource(5000)|}; });
                    Application.Received += (_, _) => { using var timeout = {|#1:new CancellationTokenSource(5000)|}; };
                    Task.Factory.StartNew(() => { using var timeout = {|#2:new CancellationTokenSource(5000)|}; });
                }
            }
            """,
            Expected("new CancellationTokenSource(timeout)", "per-operation timeout", 0),
            Expected("new CancellationTokenSource(timeout)", "per-operation timeout", 1),
            Expected("new CancellationTokenSource(timeout)", "per-operation timeout", 2));

    [Fact]
    public Task A_shutdown_hook_of_an_unresolved_type_still_counts()
    {
        var test = new Verify
        {
            TestCode = """
                using System;
                using System.Threading;

                static class Program
                {
                    static void Main()
                    {
                        using var cts = new CancellationTokenSource();
                        MissingApplication.RegisterExitAction(code => cts.CancelAfter(TimeSpan.FromSeconds(1)));
                        MissingApplication.RegisterRequestAction(code => {|#0:cts.CancelAfter(TimeSpan.FromSeconds(1))|});
                    }
                }
                """,
        };
        test.ExpectedDiagnostics.Add(Expected("CancelAfter", "per-operation timeout"));
        test.CompilerDiagnostics = Microsoft.CodeAnalysis.Testing.CompilerDiagnostics.None;
        return test.RunAsync();
    }
}
