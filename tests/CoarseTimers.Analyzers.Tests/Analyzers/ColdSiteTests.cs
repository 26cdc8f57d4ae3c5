using System.Threading.Tasks;
using Xunit;
using Verify = CoarseTimers.Analyzers.Tests.Infrastructure.AnalyzerVerifier<CoarseTimers.Analyzers.Rules.TimeoutCancellationTokenSourceAnalyzer>;

namespace CoarseTimers.Analyzers.Tests.Rules;

/// <summary>
/// Cold evidence at the site: a timeout named for the lifecycle step it bounds, a Blazor component.
/// </summary>
public partial class TimeoutCancellationTokenSourceTests
{
    [Fact]
    public Task Timeouts_named_for_a_lifecycle_step_are_cold() =>
        Verify.VerifyAsync("""
            using System;
            using System.Threading;

            class Options { public int ConnectionTimeout; public TimeSpan HandshakeTimeout; public TimeSpan CloseTimeout; }

            class Client
            {
                static readonly TimeSpan ShutdownTimeout = TimeSpan.FromSeconds(30);
                const int DEFAULT_CONNECT_TIMEOUT_MS = 5000;
                readonly int _connectTimeoutMs = 5000;
                readonly Options _options = new();

                void Prepare(CancellationTokenSource cts, int loginTimeoutSeconds)
                {
                    using var a = new CancellationTokenSource(ShutdownTimeout);
                    using var b = new CancellationTokenSource(_connectTimeoutMs);
                    using var c = new CancellationTokenSource(DEFAULT_CONNECT_TIMEOUT_MS);
                    cts.CancelAfter(_options.HandshakeTimeout);
                    cts.CancelAfter(TimeSpan.FromSeconds(loginTimeoutSeconds));
                    cts.CancelAfter(_options.CloseTimeout);

                    // Through a local's initializer.
                    var timeout = _options.ConnectionTimeout * 1000;
                    cts.CancelAfter(timeout);
                }
            }
            """);

    [Fact]
    public Task A_connection_timeout_where_requests_are_sent_bounds_each_request() =>
        Verify.VerifyAsync("""
            using System;
            using System.Threading;
            using System.Threading.Tasks;

            class RpcClient
            {
                // Some RPC and cache clients name their I/O timeout ConnectionTimeout.
                public TimeSpan ConnectionTimeout { get; set; } = TimeSpan.FromSeconds(20);

                public async Task<string> SendAsync(string request)
                {
                    using var cts = {|#0:new CancellationTokenSource(ConnectionTimeout)|};
                    await Task.Yield();
                    return request;
                }

                async Task ExecuteOperationAsync(CancellationTokenSource linked) => {|#1:linked.CancelAfter(ConnectionTimeout)|};

                // Elsewhere it is still the connect timeout.
                async Task<object> GetClientWebSocketAsync()
                {
                    using var cts = new CancellationTokenSource(ConnectionTimeout);
                    await Task.Yield();
                    return cts;
                }

                // Only ConnectionTimeout is ambiguous: a connect timeout is one in a sending member too.
                public void Send(int connectTimeoutMs)
                {
                    using var cts = new CancellationTokenSource(connectTimeoutMs);
                }
            }
            """,
            Expected("new CancellationTokenSource(timeout)", "per-operation timeout", 0),
            Expected("CancelAfter", "reused source re-armed per call", 1));

    [Fact]
    public Task Other_timeout_names_and_lifecycle_tokens_stay_per_operation() =>
        Verify.VerifyAsync("""
            using System;
            using System.Threading;

            class Client
            {
                // An idle timeout re-armed per I/O, a per-request timeout, and names where the lifecycle word does not
                // stand right before Timeout.
                readonly TimeSpan _connectionIdleTimeout = TimeSpan.FromSeconds(30);
                readonly TimeSpan _requestTimeout = TimeSpan.FromSeconds(30);
                readonly int _startTimeout = 100;
                readonly int _timeoutAfterConnect = 100;
                const int DEFAULT_REQUEST_TIMEOUT_MS = 100;
                readonly int _drainTimeout = 100;

                void Send(CancellationTokenSource cts, CancellationToken shutdownToken)
                {
                    {|#0:cts.CancelAfter(_connectionIdleTimeout)|};
                    using var a = {|#1:new CancellationTokenSource(_requestTimeout)|};
                    using var b = {|#2:new CancellationTokenSource(_startTimeout)|};
                    using var c = {|#3:new CancellationTokenSource(_timeoutAfterConnect)|};
                    using var d = {|#5:new CancellationTokenSource(_drainTimeout)|};
                    using var e = {|#6:new CancellationTokenSource(DEFAULT_REQUEST_TIMEOUT_MS)|};
                    using var linked = CancellationTokenSource.CreateLinkedTokenSource(shutdownToken);
                    {|#4:linked.CancelAfter(_requestTimeout)|};
                }
            }
            """,
            Expected("CancelAfter", "reused source re-armed per call", 0),
            Expected("new CancellationTokenSource(timeout)", "per-operation timeout", 1),
            Expected("new CancellationTokenSource(timeout)", "per-operation timeout", 2),
            Expected("new CancellationTokenSource(timeout)", "per-operation timeout", 3),
            Expected("CancelAfter", "per-operation timeout", 4),
            Expected("new CancellationTokenSource(timeout)", "per-operation timeout", 5),
            Expected("new CancellationTokenSource(timeout)", "per-operation timeout", 6));

    [Fact]
    public Task A_time_named_as_a_run_length_is_cold_and_a_timeout_duration_is_not() =>
        Verify.VerifyAsync("""
            using System;
            using System.Threading;

            class Payload { public TimeSpan Duration; public TimeSpan TimeoutDuration; }

            class Capture
            {
                readonly TimeSpan? _ruleDuration = TimeSpan.FromMinutes(5);
                readonly TimeSpan _delayDuration = TimeSpan.FromSeconds(1);
                readonly TimeSpan _maxAutoRenewDuration = TimeSpan.FromMinutes(5);
                readonly TimeSpan _leaseDuration = TimeSpan.FromSeconds(30);
                readonly TimeSpan _lockDuration = TimeSpan.FromSeconds(30);

                void Run(CancellationTokenSource cts, Payload payload, int durationInSeconds)
                {
                    // How long the work runs: the timer ends it, and usually fires.
                    cts.CancelAfter(payload.Duration);
                    cts.CancelAfter(_ruleDuration!.Value);
                    using var a = new CancellationTokenSource(TimeSpan.FromSeconds(durationInSeconds));

                    // The length of a timeout or a wait: still a timeout per operation.
                    {|#0:cts.CancelAfter(payload.TimeoutDuration)|};
                    using var b = {|#1:new CancellationTokenSource(_delayDuration)|};

                    // A limit on a run: the run usually ends first, a cut-off per operation.
                    using var c = {|#2:new CancellationTokenSource(_maxAutoRenewDuration)|};

                    // How long a lease or a lock lasts: it expires only if nobody renews or releases it.
                    using var d = {|#3:new CancellationTokenSource(_leaseDuration)|};
                    using var e = {|#4:new CancellationTokenSource(_lockDuration)|};

                    // A fraction of a run's length is due before the run ends (a check at half-time).
                    var half = payload.Duration / 2;
                    using var f = {|#5:new CancellationTokenSource(half)|};
                    using var g = {|#6:new CancellationTokenSource(TimeSpan.FromSeconds(durationInSeconds) / 2)|};

                    ArmExpiry(DefaultLease);
                    RunFor(payload.Duration);
                }

                static readonly TimeSpan DefaultLease = TimeSpan.FromSeconds(30);

                // A parameter yields to what its callers pass: a lease's expiry, then a run's length.
                void ArmExpiry(TimeSpan duration) { using var expiry = {|#7:new CancellationTokenSource(duration)|}; }
                void RunFor(TimeSpan duration) { using var run = new CancellationTokenSource(duration); }
            }
            """,
            Expected("CancelAfter", "reused source re-armed per call", 0),
            Expected("new CancellationTokenSource(timeout)", "per-operation timeout", 1),
            Expected("new CancellationTokenSource(timeout)", "per-operation timeout", 2),
            Expected("new CancellationTokenSource(timeout)", "per-operation timeout", 3),
            Expected("new CancellationTokenSource(timeout)", "per-operation timeout", 4),
            Expected("new CancellationTokenSource(timeout)", "per-operation timeout", 5),
            Expected("new CancellationTokenSource(timeout)", "per-operation timeout", 6),
            Expected("new CancellationTokenSource(timeout)", "per-operation timeout", 7));

    [Fact]
    public Task Lifecycle_member_names_of_an_operation_object_are_per_operation() =>
        Verify.VerifyAsync("""
            using System;
            using System.Threading;

            // APM: one result object per begun operation, whose Start arms the operation's timeout.
            abstract class TimeoutAsyncResult : IAsyncResult
            {
                private CancellationTokenSource _timeout;
                public object AsyncState => null;
                public WaitHandle AsyncWaitHandle => null;
                public bool CompletedSynchronously => false;
                public bool IsCompleted => false;
                protected void Start(TimeSpan timeout) => _timeout = {|#0:new CancellationTokenSource(timeout)|};
                public void Initialize(TimeSpan timeout) { using var cts = {|#1:new CancellationTokenSource(timeout)|}; }
            }

            // A component's Start stays lifecycle.
            sealed class Listener
            {
                public void Start(TimeSpan timeout) { using var cts = new CancellationTokenSource(timeout); }
            }
            """,
            Expected("new CancellationTokenSource(timeout)", "timeout held by its object, one per instance", 0),
            Expected("new CancellationTokenSource(timeout)", "per-operation timeout", 1));

    [Fact]
    public Task A_lifecycle_namespace_is_cold_and_a_lookalike_word_is_not() =>
        Verify.VerifyAsync("""
            using System.Threading;

            namespace Host.Management.LinuxSpecialization
            {
                class PackageDownload { void Probe() { using var cts = new CancellationTokenSource(5000); } }
            }

            namespace Host.Startup.Steps
            {
                class Migrations { void Apply() { using var cts = new CancellationTokenSource(5000); } }
            }

            namespace Host.Connections
            {
                class Frames { void Send() { using var cts = {|#0:new CancellationTokenSource(5000)|}; } }
            }
            """,
            Expected("new CancellationTokenSource(timeout)", "per-operation timeout", 0));

    [Fact]
    public Task Housekeeping_types_and_namespaces_are_cold_and_lookalikes_are_not() =>
        Verify.VerifyAsync("""
            using System.Threading;

            class InboxCleanupService
            {
                void DeleteBatch() { using var cts = new CancellationTokenSource(30_000); }
            }

            class ClaimCheckSweeper
            {
                void Sweep() { using var cts = new CancellationTokenSource(30_000); }
            }

            namespace Store.Transactions.Cleanup
            {
                class LostTransactionFinder { void Find() { using var cts = new CancellationTokenSource(30_000); } }
            }

            // Words, not substrings: a dry-cleaning shop's orders are per request.
            class DryCleaningOrders
            {
                void Place() { using var cts = {|#0:new CancellationTokenSource(30_000)|}; }
            }
            """,
            Expected("new CancellationTokenSource(timeout)", "per-operation timeout", 0));

    [Fact]
    public Task MSBuild_tasks_and_their_helpers_are_build_time_code() =>
        Verify.VerifyAsync("""
            using System;
            using System.Threading;
            using System.Threading.Tasks;
            using Microsoft.Build.Utilities;
            using Task = System.Threading.Tasks.Task;

            namespace Microsoft.Build.Utilities
            {
                public abstract class Task { public abstract bool Execute(); }
                public class TaskLoggingHelper { }
            }

            // A publish step: one deploy per build, its deadline once per run.
            public sealed class ZipDeploy : Microsoft.Build.Utilities.Task
            {
                public int DeployTimeoutSeconds { get; set; } = 300;

                public override bool Execute()
                {
                    using var timeout = new CancellationTokenSource(TimeSpan.FromSeconds(DeployTimeoutSeconds));
                    return true;
                }
            }

            // Its helper, in a file that imports the task API for the logger.
            class DeploymentStatus
            {
                public DeploymentStatus(TaskLoggingHelper log) { }

                public async Task PollAsync(CancellationTokenSource cts)
                {
                    var tokenSource = new CancellationTokenSource(TimeSpan.FromMinutes(5));
                    cts.CancelAfter(1000);
                    await Task.Yield();
                }
            }
            """);

    [Fact]
    public Task A_file_without_the_MSBuild_task_API_is_not_build_time_code() =>
        Verify.VerifyAsync("""
            using System;
            using System.Threading;
            using MyCompany.Build.Utilities;

            namespace MyCompany.Build.Utilities { public class Helper { } }

            namespace Microsoft.Build.Evaluation.Service
            {
                // A namespace of that name is not the task API, nor is another company's Build.Utilities.
                class Requests
                {
                    void Handle() { using var cts = {|#0:new CancellationTokenSource(TimeSpan.FromSeconds(30))|}; }
                }
            }
            """,
            Expected("new CancellationTokenSource(timeout)", "per-operation timeout", 0));

    [Fact]
    public Task Drain_types_and_recreate_members_are_lifecycle_and_a_recreating_type_is_not() =>
        Verify.VerifyAsync("""
            using System;
            using System.Threading;
            using System.Threading.Tasks;

            // A graceful drain before shutdown: a pause timeout per ingress source, once per drain.
            class DrainOrchestrator
            {
                async Task PauseOneSourceAsync(TimeSpan pauseTimeout, CancellationToken cancellationToken)
                {
                    using var perSource = CancellationTokenSource.CreateLinkedTokenSource(cancellationToken);
                    perSource.CancelAfter(pauseTimeout);
                    await Task.Delay(1, perSource.Token);
                }
            }

            // A channel rebuilt after consecutive transport failures: its bound runs once per recovery; the invoker
            // itself handles every call, so its per-call timeout stays hot.
            class ChannelRecreatingCallInvoker
            {
                readonly CancellationTokenSource _disposal = new();

                async Task RecreateAsync()
                {
                    using var cts = CreateRecreateCancellationSource();
                    await Task.Delay(1, cts.Token);
                }

                CancellationTokenSource CreateRecreateCancellationSource()
                {
                    var cts = CancellationTokenSource.CreateLinkedTokenSource(_disposal.Token);
                    cts.CancelAfter(TimeSpan.FromSeconds(30));
                    return cts;
                }

                void Invoke(TimeSpan deadline)
                {
                    using var call = {|#0:new CancellationTokenSource(deadline)|};
                }
            }
            """,
            Expected("new CancellationTokenSource(timeout)", "per-operation timeout", 0));

    [Fact]
    public Task Opening_and_handshaking_are_connection_set_up_and_opening_a_stream_is_not() =>
        Verify.VerifyAsync("""
            using System;
            using System.Threading;
            using System.Threading.Tasks;

            class TransportHandler
            {
                // Once per connection, link or session: open, reopen after a failure, handshake.
                async Task OpenAsync(TimeSpan timeout)
                {
                    using var cts = new CancellationTokenSource(timeout);
                    await Task.Delay(1, cts.Token);
                }

                async Task ReopenAsync(TimeSpan timeout) => await Task.Delay(1, new CancellationTokenSource(timeout).Token);

                // Called before every operation, opening only when closed: its source is created per operation.
                async Task EnsureOpenedAsync(TimeSpan timeout)
                {
                    using var cts = {|#1:new CancellationTokenSource(timeout)|};
                    await Task.Delay(1, cts.Token);
                }

                async Task OpenInternalAsync(TimeSpan timeout)
                {
                    using var cts = new CancellationTokenSource(timeout);
                    await Task.Delay(1, cts.Token);
                }

                async Task HandshakeAsync(CancellationToken connectionAborted, TimeSpan timeout)
                {
                    using var cts = CancellationTokenSource.CreateLinkedTokenSource(connectionAborted);
                    cts.CancelAfter(timeout);
                    await Task.Delay(1, cts.Token);
                }

                // Opens only if needed, before every operation: per use.
                async Task EnsureOpenAsync(TimeSpan timeout)
                {
                    using var cts = {|#2:new CancellationTokenSource(timeout)|};
                    await Task.Delay(1, cts.Token);
                }

                // A stream per request (HTTP/2, QUIC): Open leads the name but the member opens a stream, not the connection.
                async Task OpenStreamAsync(TimeSpan timeout)
                {
                    using var cts = {|#0:new CancellationTokenSource(timeout)|};
                    await Task.Delay(1, cts.Token);
                }
            }
            """,
            Expected("new CancellationTokenSource(timeout)", "per-operation timeout", 0),
            Expected("new CancellationTokenSource(timeout)", "per-operation timeout", 1),
            Expected("new CancellationTokenSource(timeout)", "per-operation timeout", 2));

    [Fact]
    public Task An_ado_net_connection_is_opened_per_unit_of_work() =>
        Verify.VerifyAsync("""
            using System;
            using System.Threading;
            using System.Threading.Tasks;

            // DbConnection (unresolved here, matched by name): a pool serves each OpenAsync, per request.
            abstract class PgConnection : {|CS0246:DbConnection|}
            {
                public int Budget = 15000;

                public Task OpenAsync(CancellationToken ct) => RentAsync(ct);

                private async Task RentAsync(CancellationToken ct)
                {
                    using var cts = {|#0:new CancellationTokenSource(Budget)|};
                    await Task.Delay(1, cts.Token);
                }
            }
            """,
            Expected("new CancellationTokenSource(timeout)", "per-operation timeout", 0));

    [Fact]
    public Task A_timeout_that_bounds_only_a_connect_or_handshake_is_connection_set_up() =>
        Verify.VerifyAsync("""
            using System;
            using System.Net.WebSockets;
            using System.Threading;
            using System.Threading.Tasks;

            class ChannelFactory
            {
                async Task<ClientWebSocket> CreateChannelAsync(Uri uri, TimeSpan timeout)
                {
                    var websocket = new ClientWebSocket();
                    using (var cts = new CancellationTokenSource(timeout))
                    {
                        await websocket.ConnectAsync(uri, cts.Token);
                    }

                    return websocket;
                }

                async Task CreateSessionAsync(Uri uri, CancellationToken cancellationToken)
                {
                    using var linked = CancellationTokenSource.CreateLinkedTokenSource(cancellationToken);
                    linked.CancelAfter(TimeSpan.FromMinutes(1));
                    await new ClientWebSocket().ConnectAsync(uri, linked.Token);
                    await PerformHandshakeAsync(linked.Token);
                }

                Task<ClientWebSocket> CreateInlineAsync(Uri uri) =>
                    ConnectWebSocketAsync(uri, new CancellationTokenSource(TimeSpan.FromMinutes(1)).Token);

                // The same source also bounds the exchange that follows: per operation.
                async Task ExchangeAsync(Uri uri, ArraySegment<byte> buffer, TimeSpan timeout)
                {
                    using var cts = {|#0:new CancellationTokenSource(timeout)|};
                    var websocket = new ClientWebSocket();
                    await websocket.ConnectAsync(uri, cts.Token);
                    await websocket.ReceiveAsync(buffer, cts.Token);
                }

                // Chosen by a condition, still only bounding the connect.
                async Task CreateOptionalAsync(Uri uri, TimeSpan? timeout)
                {
                    using var cts = timeout.HasValue ? new CancellationTokenSource(timeout.Value) : new CancellationTokenSource();
                    await new ClientWebSocket().ConnectAsync(uri, cts.Token);
                }

                // The source itself goes on to the exchange: it may bound more than the connect.
                async Task CallAsync(Uri uri, TimeSpan timeout)
                {
                    using var cts = {|#2:new CancellationTokenSource(timeout)|};
                    await new ClientWebSocket().ConnectAsync(uri, cts.Token);
                    await ExchangeAsync(cts);
                }

                Task ExchangeAsync(CancellationTokenSource cts) => Task.CompletedTask;

                // A token that goes nowhere says nothing about what the timeout bounds.
                void Arm(TimeSpan timeout)
                {
                    using var cts = {|#1:new CancellationTokenSource(timeout)|};
                }

                Task PerformHandshakeAsync(CancellationToken token) => Task.CompletedTask;

                Task<ClientWebSocket> ConnectWebSocketAsync(Uri uri, CancellationToken token) => Task.FromResult(new ClientWebSocket());
            }
            """,
            Expected("new CancellationTokenSource(timeout)", "per-operation timeout", 0),
            Expected("new CancellationTokenSource(timeout)", "per-operation timeout", 1),
            Expected("new CancellationTokenSource(timeout)", "per-operation timeout", 2));

    [Fact]
    public Task A_timeout_that_bounds_only_a_close_disconnect_or_stop_is_a_take_down() =>
        Verify.VerifyAsync("""
            using System;
            using System.Net.WebSockets;
            using System.Threading;
            using System.Threading.Tasks;

            interface IBus { Task StopAsync(CancellationToken token); Task DisconnectAsync(CancellationToken token); }

            class Session
            {
                // From blind round 28: a failed ping closes the connection, the close bounded by its own timeout.
                async Task<bool> CheckAsync(WebSocket socket, TimeSpan timeout)
                {
                    using var closeCts = new CancellationTokenSource(timeout);
                    await socket.CloseAsync(WebSocketCloseStatus.NormalClosure, "ping failed", closeCts.Token);
                    return false;
                }

                async Task SwitchAsync(IBus bus, IBus other)
                {
                    using var cts = new CancellationTokenSource(TimeSpan.FromSeconds(30));
                    await bus.StopAsync(cts.Token);
                    await other.DisconnectAsync(cts.Token);
                }

                // Per operation: the same source bounds the send before the close.
                async Task RespondAsync(WebSocket socket, ArraySegment<byte> message, TimeSpan timeout)
                {
                    using var cts = {|#0:new CancellationTokenSource(timeout)|};
                    await socket.SendAsync(message, WebSocketMessageType.Binary, true, cts.Token);
                    await socket.CloseAsync(WebSocketCloseStatus.NormalClosure, null, cts.Token);
                }

                // Only as the last word: CloseOutput leads with it (a half-close, after which the socket still receives).
                async Task SendLastAsync(WebSocket socket, TimeSpan timeout)
                {
                    using var cts = {|#1:new CancellationTokenSource(timeout)|};
                    await socket.CloseOutputAsync(WebSocketCloseStatus.NormalClosure, null, cts.Token);
                }
            }
            """,
            Expected("new CancellationTokenSource(timeout)", "per-operation timeout", 0),
            Expected("new CancellationTokenSource(timeout)", "per-operation timeout", 1));

    [Fact]
    public Task A_timeout_that_bounds_only_a_call_named_for_a_lifecycle_phase_is_that_phase() =>
        Verify.VerifyAsync("""
            using System;
            using System.Threading;
            using System.Threading.Tasks;

            interface IDatabaseProvider
            {
                Task RunShutdownTask(CancellationToken token);
                Task ExecuteStartupTasksAsync(CancellationToken token);
                Task QueryAsync(CancellationToken token);
            }

            class Server
            {
                async Task FinishAsync(IDatabaseProvider database)
                {
                    using var shutdownSource = new CancellationTokenSource();
                    shutdownSource.CancelAfter(TimeSpan.FromSeconds(60));
                    await database.RunShutdownTask(shutdownSource.Token);
                }

                Task PrepareAsync(IDatabaseProvider database) => database.ExecuteStartupTasksAsync(new CancellationTokenSource(30_000).Token);

                // The same source also bounds a query: per operation.
                async Task HandleAsync(IDatabaseProvider database)
                {
                    using var cts = new CancellationTokenSource();
                    {|#0:cts.CancelAfter(TimeSpan.FromSeconds(5))|};
                    await database.ExecuteStartupTasksAsync(cts.Token);
                    await database.QueryAsync(cts.Token);
                }
            }
            """,
            Expected("CancelAfter", "per-operation timeout", 0));

    [Fact]
    public Task A_timeout_that_bounds_only_a_tls_handshake_is_connection_set_up_and_a_per_request_authenticate_is_not() =>
        Verify.VerifyAsync("""
            using System;
            using System.IO;
            using System.Net.Security;
            using System.Threading;
            using System.Threading.Tasks;

            class Server
            {
                async Task AcceptAsync(Stream transport, SslServerAuthenticationOptions options, TimeSpan timeout, CancellationToken lifetime)
                {
                    var ssl = new SslStream(transport, leaveInnerStreamOpen: true);
                    var handshake = CancellationTokenSource.CreateLinkedTokenSource(lifetime);
                    handshake.CancelAfter(timeout);
                    try
                    {
                        await ssl.AuthenticateAsServerAsync(options, handshake.Token);
                    }
                    finally
                    {
                        handshake.Dispose();
                    }
                }

                async Task ConnectAsync(Stream transport, SslClientAuthenticationOptions options, TimeSpan timeout)
                {
                    using var cts = new CancellationTokenSource(timeout);
                    await new SslStream(transport).AuthenticateAsClientAsync(options, cts.Token);
                }

                // An authentication per request is not a handshake.
                async Task HandleAsync(TimeSpan timeout)
                {
                    using var cts = {|#0:new CancellationTokenSource(timeout)|};
                    await AuthenticateAsync(cts.Token);
                }

                Task AuthenticateAsync(CancellationToken token) => Task.CompletedTask;
            }
            """,
            Expected("new CancellationTokenSource(timeout)", "per-operation timeout", 0));

    [Fact]
    public Task A_timeout_that_bounds_a_connect_and_the_sign_in_after_it_is_connection_set_up() =>
        Verify.VerifyAsync("""
            using System;
            using System.Threading;
            using System.Threading.Tasks;

            class SmtpClient
            {
                public Task ConnectAsync(string host, int port, CancellationToken token) => Task.CompletedTask;
                public Task AuthenticateAsync(string user, string password, CancellationToken token) => Task.CompletedTask;
                public Task LoginAsync(CancellationToken token) => Task.CompletedTask;
                public Task SendAsync(string message, CancellationToken token) => Task.CompletedTask;
            }

            class Mailer
            {
                async Task<SmtpClient> CreateClientAsync(string host, string user, string password)
                {
                    var client = new SmtpClient();
                    using var connectCancel = new CancellationTokenSource(10000);
                    await client.ConnectAsync(host, 25, connectCancel.Token);
                    if (user != null)
                    {
                        await client.AuthenticateAsync(user, password, connectCancel.Token);
                    }

                    return client;
                }

                async Task<SmtpClient> CreateWithLoginAsync(string host)
                {
                    var client = new SmtpClient();
                    using var cts = new CancellationTokenSource();
                    cts.CancelAfter(TimeSpan.FromSeconds(10));
                    await client.ConnectAsync(host, 25, cts.Token);
                    await client.LoginAsync(cts.Token);
                    return client;
                }

                // A sign-in with no connect bounded by the same source: per operation, as a per-request authenticate is.
                async Task AuthenticateOnlyAsync(SmtpClient client, string user, string password)
                {
                    using var cts = {|#0:new CancellationTokenSource(10000)|};
                    await client.AuthenticateAsync(user, password, cts.Token);
                }

                // The same source also bounds the send that follows: per operation.
                async Task SendAsync(string host, string user, string password, string message)
                {
                    var client = new SmtpClient();
                    using var cts = {|#1:new CancellationTokenSource(10000)|};
                    await client.ConnectAsync(host, 25, cts.Token);
                    await client.AuthenticateAsync(user, password, cts.Token);
                    await client.SendAsync(message, cts.Token);
                }
            }
            """,
            Expected("new CancellationTokenSource(timeout)", "per-operation timeout", 0),
            Expected("new CancellationTokenSource(timeout)", "per-operation timeout", 1));

    [Fact]
    public Task Provisioning_is_one_off_set_up() =>
        Verify.VerifyAsync("""
            using System;
            using System.Threading;
            using System.Threading.Tasks;

            namespace Devices.Provisioning.Transport
            {
                // Registers a device once, at its first start.
                class ProvisioningTransportHandler
                {
                    async Task RegisterAsync(TimeSpan timeout)
                    {
                        using var cts = new CancellationTokenSource(timeout);
                        await Task.Delay(1, cts.Token);
                    }
                }
            }

            namespace Storage
            {
                class TableProvisioner
                {
                    async Task CreateTableAsync(TimeSpan timeout) => await Task.Delay(1, new CancellationTokenSource(timeout).Token);
                }

                class Tables
                {
                    async Task ProvisionAsync(TimeSpan timeout) => await Task.Delay(1, new CancellationTokenSource(timeout).Token);

                    // A provisioned-throughput read per request is not provisioning.
                    async Task ReadProvisionedThroughputAsync(TimeSpan timeout) => await Task.Delay(1, {|#0:new CancellationTokenSource(timeout)|}.Token);
                }
            }

            namespace Contoso.TenantProvisioning.Api
            {
                // A namespace of a provisioning service: its controllers serve requests.
                class TenantsController
                {
                    async Task GetTenantAsync(TimeSpan timeout) => await Task.Delay(1, {|#1:new CancellationTokenSource(timeout)|}.Token);
                }
            }
            """,
            Expected("new CancellationTokenSource(timeout)", "per-operation timeout", 0),
            Expected("new CancellationTokenSource(timeout)", "per-operation timeout", 1));

    [Fact]
    public Task Health_checks_run_once_per_probe() =>
        Verify.VerifyAsync("""
            using System;
            using System.Threading;
            using System.Threading.Tasks;

            namespace Microsoft.Extensions.Diagnostics.HealthChecks
            {
                public interface IHealthCheck { Task<int> CheckHealthAsync(object context, CancellationToken cancellationToken = default); }
            }

            namespace NServiceBus.CustomChecks
            {
                public abstract class CustomCheck { public abstract Task<int> PerformCheck(CancellationToken cancellationToken = default); }
            }

            namespace Service
            {
                using Microsoft.Extensions.Diagnostics.HealthChecks;
                using NServiceBus.CustomChecks;

                class DatabaseHealthCheck : IHealthCheck
                {
                    public async Task<int> CheckHealthAsync(object context, CancellationToken cancellationToken = default)
                    {
                        using var cts = new CancellationTokenSource(TimeSpan.FromSeconds(5));
                        await Task.Delay(1, cts.Token);
                        return 0;
                    }
                }

                class CheckRemotes : CustomCheck
                {
                    public override async Task<int> PerformCheck(CancellationToken cancellationToken = default)
                    {
                        using var cts = CancellationTokenSource.CreateLinkedTokenSource(cancellationToken);
                        cts.CancelAfter(TimeSpan.FromSeconds(10));
                        await Task.Delay(1, cts.Token);
                        return 0;
                    }
                }

                // An interface or base of the same name elsewhere says nothing: a per-request check stays per operation.
                class RequestValidator : Other.CustomCheck, Other.IHealthCheck
                {
                    public async Task ValidateAsync(TimeSpan timeout)
                    {
                        using var cts = {|#0:new CancellationTokenSource(timeout)|};
                        await Task.Delay(1, cts.Token);
                    }
                }
            }

            namespace Other
            {
                interface IHealthCheck { }
                abstract class CustomCheck { }
            }
            """,
            Expected("new CancellationTokenSource(timeout)", "per-operation timeout", 0));

    [Fact]
    public Task Health_check_publishers_run_once_per_period() =>
        Verify.VerifyAsync("""
            using System;
            using System.Threading;
            using System.Threading.Tasks;

            namespace Microsoft.Extensions.Diagnostics.HealthChecks
            {
                public interface IHealthCheckPublisher { Task PublishAsync(object report, CancellationToken cancellationToken); }
            }

            namespace Service
            {
                class StatusPagePublisher : Microsoft.Extensions.Diagnostics.HealthChecks.IHealthCheckPublisher
                {
                    public async Task PublishAsync(object report, CancellationToken cancellationToken)
                    {
                        using var cts = new CancellationTokenSource(TimeSpan.FromSeconds(5));
                        await Task.Delay(1, cts.Token);
                    }
                }

                // A publisher of another kind (events per order) publishes per operation.
                class OrderEventPublisher : Other.IHealthCheckPublisher
                {
                    public async Task PublishAsync(object order, TimeSpan timeout)
                    {
                        using var cts = {|#0:new CancellationTokenSource(timeout)|};
                        await Task.Delay(1, cts.Token);
                    }
                }
            }

            namespace Other
            {
                interface IHealthCheckPublisher { }
            }
            """,
            Expected("new CancellationTokenSource(timeout)", "per-operation timeout", 0));

    [Fact]
    public Task A_connect_step_is_cold_but_a_guard_before_each_operation_and_a_servers_connection_events_are_not() =>
        Verify.VerifyAsync("""
            using System;
            using System.Threading;
            using System.Threading.Tasks;

            class PresenceHub
            {
                async Task ConnectAsync(TimeSpan timeout) => await Task.Delay(1, new CancellationTokenSource(timeout).Token);

                // Called before every send: it connects only when it must, but its timeout is armed each time.
                async Task EnsureConnectAsync(TimeSpan timeout) => await Task.Delay(1, {|#0:new CancellationTokenSource(timeout)|}.Token);

                // A server handles these once per client connection: per operation, as the corpus labels them.
                public async Task OnDisconnectedAsync(TimeSpan timeout) => await Task.Delay(1, {|#1:new CancellationTokenSource(timeout)|}.Token);

                public async Task SendAsync(TimeSpan timeout) => await EnsureConnectAsync(timeout);
            }
            """,
            Expected("new CancellationTokenSource(timeout)", "per-operation timeout", 0),
            Expected("new CancellationTokenSource(timeout)", "per-operation timeout", 1));

    [Fact]
    public Task A_type_named_periodic_or_derived_from_one_paces_and_other_types_do_not() =>
        Verify.VerifyAsync("""
            using System;
            using System.Threading;
            using System.Threading.Tasks;

            namespace Microsoft.AspNetCore.Mvc
            {
                public abstract class ControllerBase { }
            }

            namespace Wallet
            {
                // A runner that calls ActionAsync once per period, and a type deriving from it: once per period, not per operation.
                abstract class PeriodicRunner
                {
                    protected abstract Task ActionAsync(CancellationToken cancel);

                    public async Task TriggerAndWaitRoundAsync(TimeSpan timeout)
                    {
                        using var cts = new CancellationTokenSource(timeout);
                        await ActionAsync(cts.Token);
                    }
                }

                sealed class Announcer : PeriodicRunner
                {
                    protected override async Task ActionAsync(CancellationToken cancel)
                    {
                        using var publish = new CancellationTokenSource(TimeSpan.FromSeconds(10));
                        await Task.Delay(1, publish.Token);
                    }
                }

                // Words, not substrings: Periodical is another word.
                sealed class PeriodicalStore
                {
                    public void Save() { using var cts = {|#0:new CancellationTokenSource(2500)|}; }
                }

                // A controller serves requests whatever its name says.
                sealed class PeriodicReportsController : Microsoft.AspNetCore.Mvc.ControllerBase
                {
                    public void Get() { using var cts = {|#1:new CancellationTokenSource(2500)|}; }
                }
            }
            """,
            Expected("new CancellationTokenSource(timeout)", "per-operation timeout", 0),
            Expected("new CancellationTokenSource(timeout)", "per-operation timeout", 1));

    [Fact]
    public Task A_controller_serves_requests_whatever_its_name_says() =>
        Verify.VerifyAsync("""
            using System;
            using System.Threading;
            using System.Threading.Tasks;

            namespace Microsoft.AspNetCore.Mvc
            {
                public abstract class ControllerBase { }
            }

            namespace Identity
            {
                // The token endpoint of /connect/token: one timeout per request.
                class ConnectController : Microsoft.AspNetCore.Mvc.ControllerBase
                {
                    public async Task ExchangeAsync(TimeSpan timeout) => await Task.Delay(1, {|#0:new CancellationTokenSource(timeout)|}.Token);
                }

                // Not a controller: a type named for connecting is connection set-up.
                class ConnectHandler
                {
                    public async Task RunAsync(TimeSpan timeout) => await Task.Delay(1, new CancellationTokenSource(timeout).Token);
                }
            }
            """,
            Expected("new CancellationTokenSource(timeout)", "per-operation timeout", 0));

    [Fact]
    public Task A_counted_retry_loop_with_no_condition_is_not_a_run_loop() =>
        Verify.VerifyAsync("""
            using System;
            using System.Net.Http;
            using System.Threading;
            using System.Threading.Tasks;

            class RetryHandler
            {
                readonly TimeSpan _perTryTimeout = TimeSpan.FromSeconds(2);
                readonly TimeSpan _interval = TimeSpan.FromSeconds(30);

                // Every request's first try arms a timeout; the backoff only paces the tries of one request.
                public async Task<int> SendAsync(Func<CancellationToken, Task<int>> send, CancellationToken ct)
                {
                    for (var attempt = 0; ; attempt++)
                    {
                        using (var attemptCts = {|#0:new CancellationTokenSource(_perTryTimeout)|})
                        {
                            var status = await send(attemptCts.Token);
                            if (status < 500 || attempt == 3) return status;
                        }

                        await Task.Delay(TimeSpan.FromMilliseconds(100 << attempt), ct);
                    }
                }

                // A run loop: one refresh per period for the life of the owner.
                public async Task RefreshForeverAsync(Func<CancellationToken, Task> refresh)
                {
                    for (;;)
                    {
                        using var cts = new CancellationTokenSource(_perTryTimeout);
                        await refresh(cts.Token);
                        await Task.Delay(_interval);
                    }
                }
            }
            """,
            Expected("new CancellationTokenSource(timeout)", "inside a loop", 0));

    [Fact]
    public Task A_hosted_services_execute_runs_once_outside_its_loops() =>
        Verify.VerifyAsync("""
            using System;
            using System.Threading;
            using System.Threading.Tasks;

            namespace Microsoft.Extensions.Hosting
            {
                public abstract class BackgroundService { protected abstract Task ExecuteAsync(CancellationToken stoppingToken); }
            }

            namespace Worker
            {
                class Seeder : Microsoft.Extensions.Hosting.BackgroundService
                {
                    protected override async Task ExecuteAsync(CancellationToken stoppingToken)
                    {
                        using var cts = CancellationTokenSource.CreateLinkedTokenSource(stoppingToken);
                        cts.CancelAfter(TimeSpan.FromMinutes(5));
                        await WaitForBrokerAsync(TimeSpan.FromSeconds(30));
                        foreach (var batch in new[] { 1, 2 })
                        {
                            await Task.Delay(1, {|#0:new CancellationTokenSource(100)|}.Token);
                        }

                        Func<Task> perMessage = async () => await Task.Delay(1, {|#1:new CancellationTokenSource(TimeSpan.FromSeconds(1))|}.Token);
                        await perMessage();
                    }

                    // Called once, from ExecuteAsync, before its loop.
                    async Task WaitForBrokerAsync(TimeSpan timeout) => await Task.Delay(1, new CancellationTokenSource(timeout).Token);
                }

                // The usual consumer: a run loop in ExecuteAsync that sends each message of a fetched batch.
                class OutboxRelay : Microsoft.Extensions.Hosting.BackgroundService
                {
                    protected override async Task ExecuteAsync(CancellationToken stoppingToken)
                    {
                        while (!stoppingToken.IsCancellationRequested)
                        {
                            var batch = await FetchAsync();
                            if (batch.Length == 0)
                            {
                                await Task.Delay(TimeSpan.FromMilliseconds(500), stoppingToken);
                                continue;
                            }

                            foreach (var message in batch)
                            {
                                using var sendCts = CancellationTokenSource.CreateLinkedTokenSource(stoppingToken);
                                {|#3:sendCts.CancelAfter(TimeSpan.FromSeconds(5))|};
                                await Task.Delay(1, sendCts.Token);
                            }
                        }
                    }

                    static Task<int[]> FetchAsync() => Task.FromResult(new int[0]);
                }

                // Not a hosted service: an ExecuteAsync of a command runs per command.
                abstract class Command { protected abstract Task ExecuteAsync(CancellationToken token); }

                class SendCommand : Command
                {
                    protected override async Task ExecuteAsync(CancellationToken token) => await Task.Delay(1, {|#2:new CancellationTokenSource(TimeSpan.FromSeconds(1))|}.Token);
                }
            }
            """,
            Expected("new CancellationTokenSource(timeout)", "inside a loop", 0),
            Expected("new CancellationTokenSource(timeout)", "per-operation timeout", 1),
            Expected("new CancellationTokenSource(timeout)", "per-operation timeout", 2),
            Expected("CancelAfter", "per-operation timeout", 3));

    [Fact]
    public Task Configuration_providers_load_at_start_up_and_on_reload() =>
        Verify.VerifyAsync("""
            using System;
            using System.Threading;
            using System.Threading.Tasks;

            namespace Microsoft.Extensions.Configuration
            {
                public abstract class ConfigurationProvider { public virtual void Load() { } }
                public interface IConfigurationSource { }
            }

            namespace Sidecar
            {
                using Microsoft.Extensions.Configuration;

                class StoreConfigurationProvider : ConfigurationProvider
                {
                    public override void Load() => LoadAsync(TimeSpan.FromSeconds(5)).GetAwaiter().GetResult();

                    async Task LoadAsync(TimeSpan sidecarWait)
                    {
                        using var cts = new CancellationTokenSource(sidecarWait);
                        await Task.Delay(1, cts.Token);
                    }
                }

                class StoreConfigurationSource : IConfigurationSource
                {
                    async Task WaitAsync(TimeSpan sidecarWait) => await Task.Delay(1, new CancellationTokenSource(sidecarWait).Token);
                }

                // A base type of the same name elsewhere says nothing.
                class SecretClient : Other.ConfigurationProvider
                {
                    async Task GetSecretAsync(TimeSpan timeout)
                    {
                        using var cts = {|#0:new CancellationTokenSource(timeout)|};
                        await Task.Delay(1, cts.Token);
                    }
                }
            }

            namespace Other
            {
                abstract class ConfigurationProvider { }
            }
            """,
            Expected("new CancellationTokenSource(timeout)", "per-operation timeout", 0));

    [Fact]
    public Task A_timeout_around_a_process_run_stays_per_operation() =>
        Verify.VerifyAsync("""
            using System.Diagnostics;
            using System.Threading;
            using System.Threading.Tasks;

            class Tools
            {
                // A tool run per request: its timeout is per request, however costly the process (the corpus labels these hot).
                async Task RunToolAsync(ProcessStartInfo info)
                {
                    using var process = Process.Start(info)!;
                    using var cts = {|#0:new CancellationTokenSource(120_000)|};
                    await process.WaitForExitAsync(cts.Token);
                }
            }
            """,
            Expected("new CancellationTokenSource(timeout)", "per-operation timeout", 0));

    [Fact]
    public Task Blazor_components_are_cold_and_a_lookalike_base_type_is_not() =>
        Verify.VerifyAsync("""
            using System.Threading;

            namespace Microsoft.AspNetCore.Components { public abstract class ComponentBase { } }
            namespace Other { public abstract class ComponentBase { } }

            class Dashboard : Microsoft.AspNetCore.Components.ComponentBase
            {
                void Refresh() { using var cts = new CancellationTokenSource(1000); }
            }

            class Licensed : Microsoft.AspNetCore.Components.ComponentBase { }

            class Cluster : Licensed
            {
                void Refresh() { using var cts = new CancellationTokenSource(1000); }
            }

            class Handler : Other.ComponentBase
            {
                void Handle() { using var cts = {|#0:new CancellationTokenSource(1000)|}; }
            }
            """,
            Expected("new CancellationTokenSource(timeout)", "per-operation timeout", 0));

    [Fact]
    public Task A_helper_called_only_from_a_component_is_cold_but_passing_a_connect_timeout_along_is_not_evidence() =>
        Verify.VerifyAsync("""
            using System;
            using System.Threading;

            namespace Microsoft.AspNetCore.Components { public abstract class ComponentBase { } }

            class Gossip
            {
                internal static void Request() { using var cts = new CancellationTokenSource(1000); }
                internal static void Rent(TimeSpan timeout) { using var cts = {|#0:new CancellationTokenSource(timeout)|}; }
            }

            class Dashboard : Microsoft.AspNetCore.Components.ComponentBase
            {
                void Refresh() => Gossip.Request();
            }

            class Pool
            {
                readonly TimeSpan _connectionTimeout = TimeSpan.FromSeconds(15);

                // Per request: the callee's timer is judged where it is, not by the name of what its caller passes.
                void HandleRequest() => Gossip.Rent(_connectionTimeout);
            }
            """,
            Expected("new CancellationTokenSource(timeout)", "per-operation timeout", 0));

    [Fact]
    public Task The_code_behind_of_a_razor_component_is_cold()
    {
        const string Component = """
            using System.Threading;

            public partial class Cluster
            {
                void Refresh() { using var cts = new CancellationTokenSource(1000); }
            }
            """;
        const string Service = """
            using System.Threading;

            public class ClusterService
            {
                void Refresh() { using var cts = {|#0:new CancellationTokenSource(1000)|}; }
            }
            """;
        var test = new Verify();
        test.TestState.Sources.Add(("Components/Cluster.razor.cs", Component));
        test.TestState.Sources.Add(("Services/ClusterService.cs", Service));
        test.ExpectedDiagnostics.Add(Expected("new CancellationTokenSource(timeout)", "per-operation timeout"));
        return test.RunAsync();
    }
}
