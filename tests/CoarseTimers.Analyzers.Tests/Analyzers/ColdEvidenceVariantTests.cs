using System.Threading.Tasks;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.Testing;
using Xunit;
using VerifySource = CoarseTimers.Analyzers.Tests.Infrastructure.AnalyzerVerifier<CoarseTimers.Analyzers.Rules.TimeoutCancellationTokenSourceAnalyzer>;
using VerifySpin = CoarseTimers.Analyzers.Tests.Infrastructure.AnalyzerVerifier<CoarseTimers.Analyzers.Rules.SpinUntilAnalyzer>;

namespace CoarseTimers.Analyzers.Tests.Rules;

/// <summary>
/// Cold evidence (lifecycle names, hooks, timeout names, cold callers) read the same way whatever syntax carries it:
/// each source holds the documented form and its variants.
/// </summary>
public class ColdEvidenceVariantTests
{
    private const string Usings = """
        using System;
        using System.Collections.Generic;
        using System.Data;
        using System.Data.Common;
        using System.Threading;
        using System.Threading.Tasks;

        """;

    private static DiagnosticResult PerOperation(int location) =>
        new DiagnosticResult(DiagnosticIds.TimeoutCancellationTokenSource, DiagnosticSeverity.Warning).WithLocation(location)
            .WithArguments("new CancellationTokenSource(timeout)", "per-operation timeout");

    [Fact]
    public Task Ensure_guards_stay_per_use_in_explicit_implementations_and_local_functions_but_keep_their_other_lifecycle_words() =>
        VerifySource.VerifyAsync(Usings + """
            interface IConn { Task EnsureConnectAsync(); }

            class Conn : IConn
            {
                public async Task SendAsync()
                {
                    await EnsureOpenAsync();
                    async Task EnsureOpenAsync() { using var cts = {|#0:new CancellationTokenSource(5000)|}; await Task.Yield(); }
                }

                async Task IConn.EnsureConnectAsync() { using var cts = {|#1:new CancellationTokenSource(5000)|}; await Task.Yield(); }

                // A session's sign-in, whatever guard leads the name.
                async Task EnsureConnectAndLoginAsync() { using var cts = new CancellationTokenSource(5000); await Task.Yield(); }
            }

            class PooledConnection : DbConnection
            {
                public override async Task OpenAsync(CancellationToken ct) { using var cts = {|#2:new CancellationTokenSource(5000)|}; await Task.Yield(); }
                async Task OpenAndInitializeAsync() { using var cts = new CancellationTokenSource(5000); await Task.Yield(); }
                async Task InitializeAndOpenAsync() { using var cts = new CancellationTokenSource(5000); await Task.Yield(); }

                public override void Open() { }
                public override string ConnectionString { get; set; } = "";
                public override string Database => "";
                public override string DataSource => "";
                public override string ServerVersion => "";
                public override ConnectionState State => default;
                public override void ChangeDatabase(string databaseName) { }
                public override void Close() { }
                protected override DbTransaction BeginDbTransaction(IsolationLevel isolationLevel) => throw new NotSupportedException();
                protected override DbCommand CreateDbCommand() => throw new NotSupportedException();
            }
            """,
            PerOperation(0), PerOperation(1), PerOperation(2));

    [Fact]
    public Task Shutdown_hooks_count_however_the_lambda_is_written_and_lifecycle_contexts_also_when_nullable() =>
        VerifySource.VerifyAsync(Usings + """
            struct StopContext { }

            class Hooks
            {
                public void Register()
                {
                    AppDomain.CurrentDomain.ProcessExit += (s, e) => { using var cts = new CancellationTokenSource(5000); };
                    AppDomain.CurrentDomain.ProcessExit += ((s, e) => { using var cts = new CancellationTokenSource(5000); });
                    AppDomain.CurrentDomain.ProcessExit += (EventHandler)((s, e) => { using var cts = new CancellationTokenSource(5000); });
                    AppDomain.CurrentDomain.ProcessExit += new EventHandler((s, e) => { using var cts = new CancellationTokenSource(5000); });
                    AppDomain.CurrentDomain.UnhandledException += (s, e) => { using var cts = {|#0:new CancellationTokenSource(5000)|}; };
                }

                public void OnStop(StopContext context) { using var cts = new CancellationTokenSource(5000); }
                public void OnStopMaybe(StopContext? context) { using var cts = new CancellationTokenSource(5000); }
            }
            """,
            PerOperation(0));

    [Fact]
    public Task A_lifecycle_timeout_name_is_read_from_the_local_the_argument_binds_to() =>
        VerifySource.VerifyAsync(Usings + """
            class Options { public TimeSpan ConnectTimeout { get; set; } public TimeSpan RequestTimeout { get; set; } }

            class Client
            {
                private readonly Options _o = new();

                public async Task SendAsync(bool connect)
                {
                    if (connect)
                    {
                        var t = _o.ConnectTimeout;
                        using var connecting = new CancellationTokenSource(t);
                        await Task.Yield();
                    }
                    else
                    {
                        var t = _o.RequestTimeout;
                        using var cts = {|#0:new CancellationTokenSource(t)|};
                        await Task.Yield();
                    }
                }
            }
            """,
            PerOperation(0));

    [Fact]
    public Task A_lifecycle_timeout_local_of_an_earlier_top_level_statement_is_read()
    {
        var test = new Infrastructure.AnalyzerVerifier<CoarseTimers.Analyzers.Rules.TimeoutCancellationTokenSourceAnalyzer>
        {
            TestCode = """
                using System;
                using System.Threading;
                using System.Threading.Tasks;

                var options = new Options();
                var t = options.ConnectTimeout;
                while (true)
                {
                    using var cts = new CancellationTokenSource(t);
                    await Task.Yield();
                }

                class Options { public TimeSpan ConnectTimeout { get; set; } = TimeSpan.FromSeconds(5); }
                """,
        }.AsConsoleApplication();
        return test.RunAsync();
    }

    [Fact]
    public Task Callers_hidden_from_a_text_search_keep_a_constructor_or_method_per_operation() =>
        VerifySource.VerifyAsync(Usings + """
            using L = AliasedLease;

            class Service
            {
                public async Task StartAsync() { _ = new ImplicitLease(); _ = new AliasedLease(); _ = new ExplicitLease(); Arm(); Warm(3); await Task.Yield(); }
                public void HandleRequest() { _ = new RenewableLease(); _ = new L(); _ = new ChainedLease(); @Arm(); }

                void Arm() { using var cts = {|#3:new CancellationTokenSource(5000)|}; }

                // Recursion adds no way in: only StartAsync enters it.
                void Warm(int n) { using var cts = new CancellationTokenSource(5000); if (n > 0) Warm(n - 1); }
            }

            class ImplicitLease { public ImplicitLease() { using var cts = {|#0:new CancellationTokenSource(5000)|}; } }
            class RenewableLease : ImplicitLease { }

            class AliasedLease { public AliasedLease() { using var cts = {|#1:new CancellationTokenSource(5000)|}; } }

            class ExplicitLease { public ExplicitLease() { using var cts = {|#2:new CancellationTokenSource(5000)|}; } }
            class ChainedLease : ExplicitLease { public ChainedLease() : base() { } }
            """,
            PerOperation(0), PerOperation(1), PerOperation(2), PerOperation(3));

    [Fact]
    public Task A_method_called_per_item_of_an_await_foreach_is_not_cold_through_its_callers_and_a_failure_local_function_is_cold() =>
        VerifySource.VerifyAsync(Usings + """
            class Consumer
            {
                public async Task StartAsync(IAsyncEnumerable<int> stream) => await ConsumeAsync(stream);

                async Task ConsumeAsync(IAsyncEnumerable<int> stream)
                {
                    await foreach (var m in stream) { Handle(m); }
                }

                void Handle(int m) { using var cts = {|#0:new CancellationTokenSource(5000)|}; }

                public void Process()
                {
                    HandleProviderError();
                    void HandleProviderError() { Arm(); using var cts = new CancellationTokenSource(5000); }
                }

                void Arm() { using var cts = new CancellationTokenSource(5000); }
            }
            """,
            PerOperation(0));

    [Fact]
    public Task A_long_spin_in_a_local_function_of_a_helper_only_Dispose_calls_is_cold() =>
        VerifySpin.VerifyAsync(Usings + """
            class Pool : IDisposable
            {
                private volatile bool _idle;
                private readonly int _timeoutMs = 100;

                public void Dispose() => WaitIdle();

                void WaitIdle()
                {
                    SpinWait.SpinUntil(() => _idle, _timeoutMs);
                    Inner();
                    void Inner() => SpinWait.SpinUntil(() => _idle, _timeoutMs);
                }
            }
            """);
}
