using System.Threading.Tasks;
using Xunit;
using Verify = CoarseTimers.Analyzers.Tests.Infrastructure.AnalyzerVerifier<CoarseTimers.Analyzers.Rules.TimeoutCancellationTokenSourceAnalyzer>;

namespace CoarseTimers.Analyzers.Tests.Rules;

/// <summary>Cold evidence from what a member's name says it handles: configuration changes, expiry sweeps, probes.</summary>
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
                void ListenForConfigChanges() { using var cts = new CancellationTokenSource(2500); }
                Task<int> DeleteExpiredPayloadsAsync() { using var cts = new CancellationTokenSource(2500); return Task.FromResult(0); }
                Task ProbeDestinationAsync() { using var cts = new CancellationTokenSource(2500); return Task.CompletedTask; }
                Task OnInitializedAsync() { using var cts = new CancellationTokenSource(1000); return Task.CompletedTask; }
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
                void CheckExpiry() { using var cts = {|#2:new CancellationTokenSource(2500)|}; }
                void PayInstallment() { using var cts = {|#3:new CancellationTokenSource(2500)|}; }

                // Per item of a sweep is still per item.
                void DeleteExpiredPayloads(int[] items) { foreach (var item in items) { using var cts = {|#4:new CancellationTokenSource(2500)|}; } }
            }
            """,
            Expected("new CancellationTokenSource(timeout)", "per-operation timeout", 0),
            Expected("new CancellationTokenSource(timeout)", "per-operation timeout", 1),
            Expected("new CancellationTokenSource(timeout)", "per-operation timeout", 2),
            Expected("new CancellationTokenSource(timeout)", "per-operation timeout", 3),
            Expected("new CancellationTokenSource(timeout)", "per-operation timeout", 4));
}
