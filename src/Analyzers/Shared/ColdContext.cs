using System;
using System.Collections.Generic;
using System.Collections.Immutable;
using System.Linq;
using System.Threading;
using CoarseTimers.Analyzers.Internals;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CSharp;
using Microsoft.CodeAnalysis.CSharp.Syntax;
using Microsoft.CodeAnalysis.Operations;

namespace CoarseTimers.Analyzers.Shared;

/// <summary>
/// Evidence that code runs rarely, whatever its shape: lifecycle code, test code and failure paths
/// (docs/hot-paths.md, "Cold contexts"). Only names and syntax the compilation holds are read, so the test is cheap and
/// works with unresolved references. Names are split into words at case changes and punctuation
/// (<c>WaitUntilReadyAsync</c> is Wait, Until, Ready, Async) and compared word by word, never by substring, so
/// <c>Connection</c> is not <c>Connect</c> and <c>Stopwatch</c> is not <c>Stop</c>.
/// </summary>
internal static class ColdContext
{
    /// <summary>
    /// The last word of a member or local function name (before <c>Async</c>/<c>Core</c>/<c>Internal</c>/<c>Impl</c>) that
    /// names a lifecycle step: start-up, readiness waits, connection set-up (connect, open, handshake), shutdown,
    /// disposal, aborting, draining and clean-up run once per process, host, connection, session or link, not per operation, and so
    /// does a session's sign-in (<c>LoginAsync</c>, <c>Logon</c>: at connect, and again only when its token expires); so
    /// does recovery (<c>RecreateAsync</c>: a channel or client rebuilt after failures, as <c>Reconnect</c> and
    /// <c>Reopen</c>), and so does going offline (<c>OfflineAsync</c>, <c>WhenOffline</c>: the connection is down or being
    /// taken down). The last word, because it names what the member does: <c>StopAndDrainAsync</c>,
    /// <c>OpenInternalAsync</c> and <c>WaitUntilReadyAsync</c> are lifecycle, <c>StartTimeout</c> and <c>OpenStreamAsync</c>
    /// (a stream per request) are not.
    /// </summary>
    private static readonly ImmutableHashSet<string> s_lifecycleWords = ImmutableHashSet.Create(
        StringComparer.Ordinal,
        "Start", "Started", "Starting", "Startup", "Restart", "Init", "Initialize", "Initialized", "Initialization", "Bootstrap", "Warmup", "Ready",
        "Connect", "Reconnect", "Disconnect", "Open", "Opening", "Reopen", "Handshake", "Stop", "Stopping", "Stopped", "Shutdown",
        "Dispose", "Disposing", "Close", "Closing", "Abort", "Aborting", "Drain", "Draining", "Teardown", "Terminate", "Termination", "Cleanup", "Purge", "Specialize",
        "Specialization", "Recreate", "Provision", "Offline", "Login", "Logon", "Relogin");

    /// <summary>
    /// Lifecycle verbs that say what a member does when they lead its name (a member name is a verb phrase:
    /// <c>ConnectGrpcAsync</c>, <c>InitializeTransportAsync</c>, <c>ShutdownWorkersAsync</c>, <c>DrainTablePartitionAsync</c>,
    /// <c>PurgeInstanceStateAsync</c>, <c>CleanupResourcesAsync</c>). Only verbs with no
    /// per-operation reading: <c>Start</c>, <c>Stop</c>, <c>Close</c> and <c>Dispose</c> also lead per-operation names
    /// (<c>StartCall</c>, <c>StopTimer</c>, <c>CloseStream</c>), and so does <c>Restart</c> (<c>RestartTimeoutTimer</c>), so they
    /// count only as the last word.
    /// </summary>
    private static readonly ImmutableHashSet<string> s_lifecycleVerbs = ImmutableHashSet.Create(
        StringComparer.Ordinal, "Connect", "Reconnect", "Disconnect", "Init", "Initialize", "Bootstrap", "Warmup", "Shutdown", "Teardown", "Terminate",
        "Specialize", "Drain", "Purge", "Cleanup");

    /// <summary>Lifecycle words that a leading Ensure makes a per-use guard (<c>EnsureConnectAsync</c>, <c>EnsureOpenAsync</c>).</summary>
    private static readonly ImmutableHashSet<string> s_ensureGuardWords = ImmutableHashSet.Create(StringComparer.Ordinal, "Connect", "Open");

    /// <summary>The lifecycle word an ADO.NET connection's member uses per unit of work: a pooled connection is opened per use.</summary>
    private static readonly ImmutableHashSet<string> s_pooledConnectionWords = ImmutableHashSet.Create(StringComparer.Ordinal, "Open");

    /// <summary>
    /// Words that make a method or event a shutdown or exit hook when they stand anywhere in its name
    /// (<c>RegisterExitAction</c>, <c>ProcessExit</c>, <c>OnStopping</c>): what is registered there runs once, at the end.
    /// Event forms and Exit/Shutdown only: a plain <c>Start</c>, <c>Stop</c> or <c>Close</c> also names per-operation calls.
    /// </summary>
    private static readonly ImmutableHashSet<string> s_shutdownHookWords = ImmutableHashSet.Create(
        StringComparer.Ordinal, "Exit", "Exiting", "Exited", "Shutdown", "Stopping", "Stopped", "Disposing", "Disposed", "Closing", "Closed",
        "Terminating", "Terminated");

    /// <summary>
    /// Words that make a member a failure handler when they end its name (<c>HandleProviderError</c>,
    /// <c>OnConnectionFailure</c>, <c>OnTimeoutExceptionAsync</c>): it runs when something failed, as a catch block does
    /// (<see cref="RareEvent"/>). Only as the last word: <c>ExecuteWithErrorHandling</c> wraps every call.
    /// </summary>
    private static readonly ImmutableHashSet<string> s_failureWords = ImmutableHashSet.Create(
        StringComparer.Ordinal, "Error", "Errors", "Failure", "Failures", "Failed", "Fault", "Faulted", "Exception");

    /// <summary>
    /// Nouns that name a lifecycle phase wherever they stand in a member's name (<c>RunShutdownHooksAsync</c>,
    /// <c>ExecuteStartupTasks</c>), as the last word does (<see cref="NamesLifecycle"/>). Not the verbs Start, Stop or Close, which also name
    /// per-operation steps and count only as a last word (<see cref="s_lifecycleWords"/>).
    /// </summary>
    private static readonly ImmutableHashSet<string> s_lifecyclePhaseNouns = ImmutableHashSet.Create(
        StringComparer.Ordinal, "Shutdown", "Startup", "Warmup", "Bootstrap", "Teardown");

    /// <summary>Words naming configuration, in a member that handles its change (<see cref="RareEvent"/>).</summary>
    private static readonly ImmutableHashSet<string> s_configurationWords = ImmutableHashSet.Create(StringComparer.Ordinal, "Config", "Configuration");

    /// <summary>Words naming a change, with a configuration word (<see cref="RareEvent"/>).</summary>
    private static readonly ImmutableHashSet<string> s_changeWords = ImmutableHashSet.Create(
        StringComparer.Ordinal, "Change", "Changed", "Changes", "Update", "Updated", "Reload", "Reloaded", "Assign", "Assigned");

    /// <summary>Words naming what a sign-in obtains or does, with an interactive flow's words (<see cref="InteractiveSignIn"/>).</summary>
    private static readonly ImmutableHashSet<string> s_credentialWords = ImmutableHashSet.Create(
        StringComparer.Ordinal, "Token", "Tokens", "Login", "Logon", "Auth", "Authenticate", "Authentication", "Authorize", "Authorization", "Credential",
        "Credentials", "Sign");

    /// <summary>
    /// Words that make a whole type, or a whole namespace, lifecycle code wherever they stand in its name:
    /// <c>ConnectContext</c>, <c>StartupHook</c>, <c>Management.LinuxSpecialization</c> (a host's one-off switch from
    /// placeholder to its app), <c>DrainOrchestrator</c> (a graceful drain before shutdown). Not the -ing forms that
    /// name what a per-call type keeps doing (<c>ChannelRecreatingCallInvoker</c> handles every call).
    /// </summary>
    private static readonly ImmutableHashSet<string> s_lifecycleTypeWords = ImmutableHashSet.Create(
        StringComparer.Ordinal, "Startup", "Bootstrap", "Bootstrapper", "Initializer", "Warmup", "Connect", "Reconnect", "Shutdown", "Specialization",
        "Drain", "Drainer");

    /// <summary>
    /// Words that make a type (not a namespace) set-up code: <c>ProvisioningTransportHandler</c>, <c>DynamoDbProvisioner</c>
    /// register a device or create a table once. Not in a namespace: <c>Contoso.TenantProvisioning.Api</c> serves requests.
    /// </summary>
    private static readonly ImmutableHashSet<string> s_setUpTypeWords = ImmutableHashSet.Create(StringComparer.Ordinal, "Provisioning", "Provisioner");

    /// <summary>
    /// Words that make a type or a namespace housekeeping (<c>InboxCleanupService</c>, <c>ClaimCheckSweeper</c>,
    /// <c>Transactions.Cleanup</c>, <c>Scavenging</c>): it sweeps stale state on a period or on demand, as the member
    /// names of <see cref="RareEvent"/> do, never per operation.
    /// </summary>
    private static readonly ImmutableHashSet<string> s_housekeepingTypeWords = ImmutableHashSet.Create(
        StringComparer.Ordinal, "Cleanup", "Cleaner", "Sweeper", "Scavenger", "Scavenging", "Janitor", "Reaper", "Purger", "Housekeeping", "Housekeeper");

    private static readonly ImmutableHashSet<string> s_suffixWords = ImmutableHashSet.Create(StringComparer.Ordinal, "Async", "Core", "Internal", "Impl");

    /// <summary>Words that mark a type as test support: a test class, a fake, a benchmark.</summary>
    private static readonly ImmutableHashSet<string> s_testWords = ImmutableHashSet.Create(
        StringComparer.Ordinal, "Test", "Tests", "Testing", "Benchmark", "Benchmarks", "Fake", "Fakes");

    /// <summary>Second words of test-support assembly segments: <c>TestCommon</c>, <c>TestUtilities</c>, <c>TestFramework</c>, <c>TestKit</c> (not <c>TestProject</c>).</summary>
    private static readonly ImmutableHashSet<string> s_testSupportWords = ImmutableHashSet.Create(
        StringComparer.Ordinal, "Common", "Utilities", "Utils", "Helpers", "Support", "Infrastructure", "Shared", "Host", "Framework", "Kit");

    /// <summary>
    /// Why <paramref name="operation"/> runs rarely, or null when nothing says so. In a test project
    /// (<paramref name="inTestProject"/>) test words in type and namespace names say nothing the project does not: it is
    /// cold as a whole unless <c>analyze_test_projects</c> turns it back on, and then its test-named types
    /// (<c>Contoso.Gateway.Tests</c>, <c>GatewayTests</c>) are what the option asks to analyze.
    /// </summary>
    public static string? Reason(IOperation operation, ISymbol containingSymbol, bool inTestProject)
    {
        if (ThrowsNext(operation))
        {
            return "failure path (it throws next)";
        }

        if (AfterCaughtFailure(operation))
        {
            return "failure path (reached only after a caught exception)";
        }

        var inLoop = false;
        for (var parent = operation.Parent; parent is not null; parent = parent.Parent)
        {
            switch (parent)
            {
                case ILoopOperation:
                    inLoop = true;
                    break;
                case ICatchClauseOperation:
                    return "failure path (catch block)";
                case IAnonymousFunctionOperation when IsCancellationCallback(parent):
                    return "cancellation path (a CancellationToken.Register callback)";
                case IAnonymousFunctionOperation when ShutdownCallbackOf(parent) is { } registration:
                    return $"shutdown path (a callback of {registration})";
                case ILocalFunctionOperation local when NamesLifecycleStep(local.Symbol):
                    return $"lifecycle: {local.Symbol.Name}";
                case ILocalFunctionOperation local when !inLoop && RareEvent(local.Symbol.Name) is { } rare:
                    // As for a member: a local function that handles a failure or a reload runs when that happens.
                    return $"{rare}: {local.Symbol.Name}";
            }
        }

        for (var symbol = containingSymbol; symbol is not null and not INamespaceSymbol; symbol = symbol.ContainingSymbol)
        {
            if (symbol is INamedTypeSymbol type)
            {
                // A controller or hub serves requests whatever its name says (a `ConnectController` issues tokens per request).
                if (((HotPathModel.IsPerRequestType(type) ? null : ContainerReason(type.Name, type.Name, inTestProject) ?? PeriodicTypeReason(type)) ??
                     SetUpTypeReason(type.Name) ?? ConfigurationProviderReason(type) ?? HealthCheckReason(type)) is { } reason)
                {
                    return reason;
                }
            }
            else if (symbol is IMethodSymbol { MethodKind: not MethodKind.AnonymousFunction } method && MemberReason(method, inLoop) is { } reason)
            {
                return reason;
            }
        }

        for (var ns = containingSymbol.ContainingNamespace; ns is { IsGlobalNamespace: false }; ns = ns.ContainingNamespace)
        {
            if (ContainerReason(ns.Name, "namespace " + ns.Name, inTestProject) is { } reason)
            {
                return reason;
            }

            // A whole namespace segment (Hazelcast.Examples.Client), as for assembly names: samples shipped beside a
            // library, whatever their assembly is called. Not a word inside a segment (Contoso.Sampling, AudioSamples).
            if (s_sampleSegments.Contains(ns.Name))
            {
                return $"sample code: namespace {ns.Name}";
            }
        }

        if (BuildTimeImport(operation.Syntax.SyntaxTree) is { } import)
        {
            return $"build-time code (imports {import})";
        }

        return ColdSite.UserInterfaceType(operation, containingSymbol) is { } ui ? $"user-interface code: {ui}" : null;
    }

    /// <summary>
    /// <see cref="Reason"/> for a timer site itself, which also reads what its timeout is called
    /// (<see cref="ColdSite.TimeNameReason"/>). Not for the call sites <see cref="ColdCallers"/> weighs: a call
    /// that passes a connect timeout along says less about how often it runs than the timer that consumes it.
    /// </summary>
    public static string? SiteReason(IOperation operation, ISymbol containingSymbol, KnownSymbols symbols, CancellationToken cancellationToken) =>
        Reason(operation, containingSymbol, symbols.IsTestProject) ?? ColdSite.TimeNameReason(operation, containingSymbol, symbols.Callers, cancellationToken);

    private static string? SetUpTypeReason(string name) => HasWord(name, s_setUpTypeWords) ? $"set-up: {name}" : null;

    // What the name of a containing type or namespace says, words split once: lifecycle, housekeeping or test code.
    private static string? ContainerReason(string name, string shown, bool inTestProject)
    {
        var words = Words(name);
        return Any(words, s_lifecycleTypeWords) ? $"lifecycle: {shown}" :
               Any(words, s_housekeepingTypeWords) ? $"housekeeping: {shown}" :
               !inTestProject && Any(words, s_testWords) ? $"test code: {shown}" : null;
    }

    // What a member's name or parameters say: a lifecycle step, a rare event (not for a site in a loop of the member:
    // per item stays per item), or a lifecycle step's context.
    private static string? MemberReason(IMethodSymbol method, bool siteInLoop)
    {
        if (method.MethodKind is MethodKind.Ordinary or MethodKind.ExplicitInterfaceImplementation or MethodKind.LocalFunction)
        {
            if (NamesLifecycleStep(method))
            {
                return $"lifecycle: {method.Name}";
            }

            if (!siteInLoop && RareEvent(method.Name) is { } rare)
            {
                return $"{rare}: {method.Name}";
            }

            if (ReturnsException(method))
            {
                return $"failure path: {method.Name} builds an exception";
            }
        }

        return LifecycleParameter(method) is { } parameterType ? $"lifecycle: takes a {parameterType}" : null;
    }

    /// <summary>
    /// The member returns an exception, directly or as the result of a <c>Task</c> or <c>ValueTask</c>
    /// (<c>Task&lt;HttpRequestException&gt; CreateExceptionWithBodyAsync(response)</c>): it builds what its caller throws, so it
    /// runs when something failed, whatever it is called, as a catch block does. Not when it may return no exception
    /// (a nullable return type, or <c>null</c> or <c>default</c> in a returned expression): <c>ValidationException?
    /// Validate(request)</c> runs on every request and returns null when it passes.
    /// </summary>
    private static bool ReturnsException(IMethodSymbol method)
    {
        if (method.ReturnType.NullableAnnotation == NullableAnnotation.Annotated)
        {
            return false;
        }

        var type = method.ReturnType as INamedTypeSymbol;
        if (type is { IsGenericType: true, TypeArguments.Length: 1, Name: "Task" or "ValueTask" } &&
            type.ContainingNamespace?.ToDisplayString() == "System.Threading.Tasks")
        {
            if (type.TypeArgumentNullableAnnotations[0] == NullableAnnotation.Annotated)
            {
                return false;
            }

            type = type.TypeArguments[0] as INamedTypeSymbol;
        }

        for (; type is not null; type = type.BaseType)
        {
            if (type is { Name: "Exception", ContainingNamespace: { Name: "System", ContainingNamespace.IsGlobalNamespace: true } })
            {
                return !MayReturnNull(method);
            }
        }

        return false;
    }

    private static bool MayReturnNull(IMethodSymbol method)
    {
        foreach (var reference in method.DeclaringSyntaxReferences)
        {
            foreach (var node in reference.GetSyntax().DescendantNodes())
            {
                var returned = node switch
                {
                    ReturnStatementSyntax statement => statement.Expression,
                    ArrowExpressionClauseSyntax arrow => arrow.Expression,
                    _ => null,
                };
                if (returned is not null && returned.DescendantNodesAndSelf().Any(n => n.IsKind(SyntaxKind.NullLiteralExpression) ||
                                                                                       n.IsKind(SyntaxKind.DefaultLiteralExpression) ||
                                                                                       n.IsKind(SyntaxKind.DefaultExpression)))
                {
                    return true;
                }
            }
        }

        return false;
    }

    /// <summary>
    /// The method's or local function's name says it is a lifecycle step (<see cref="NamesLifecycle"/>), not counting the
    /// words that there name a per-use guard (<see cref="PerUseWords"/>), and it is not a member of an operation object.
    /// </summary>
    private static bool NamesLifecycleStep(IMethodSymbol method) =>
        MemberWords(method.Name) is var words && NamesLifecycle(words, PerUseWords(method, words)) && !IsOperationObject(method.ContainingType);

    /// <summary>
    /// The words that name an Open or Connect run per use, not once per connection: Connect and Open in a member that
    /// opens only if needed before each operation (<c>EnsureConnectAsync</c>, <c>EnsureOpenAsync</c>: Ensure leads the
    /// name), and Open in an ADO.NET connection's member (a type deriving from <c>System.Data.Common.DbConnection</c>, by
    /// name when unresolved), which a pool serves per unit of work. Other lifecycle words of such a name still count
    /// (<c>EnsureConnectAndLoginAsync</c> signs in: a session's set-up).
    /// </summary>
    private static ImmutableHashSet<string> PerUseWords(IMethodSymbol method, List<string> words)
    {
        if (words.Count > 0 && words[0] == "Ensure")
        {
            return s_ensureGuardWords;
        }

        return method.ContainingType?.InheritsFromNamed("DbConnection", "System.Data.Common", orUnresolved: true) == true
            ? s_pooledConnectionWords
            : ImmutableHashSet<string>.Empty;
    }

    /// <summary>
    /// The type is a configuration provider or source (it derives from <c>ConfigurationProvider</c> or implements
    /// <c>IConfigurationProvider</c> or <c>IConfigurationSource</c>, Microsoft.Extensions.Configuration): it loads settings
    /// when the host builds its configuration and again on a reload, never per operation. Matched by name, so it holds
    /// with that package unresolved.
    /// </summary>
    private static string? ConfigurationProviderReason(INamedTypeSymbol type)
    {
        const string Namespace = "Microsoft.Extensions.Configuration";
        return type.InheritsFromNamed("ConfigurationProvider", Namespace, orUnresolved: true) ||
               type.ImplementsNamed("IConfigurationProvider", Namespace) || type.ImplementsNamed("IConfigurationSource", Namespace)
            ? $"configuration provider: {type.Name}"
            : null;
    }

    /// <summary>
    /// The type is a health check or a publisher of their results (it implements <c>IHealthCheck</c> or
    /// <c>IHealthCheckPublisher</c>, Microsoft.Extensions.Diagnostics.HealthChecks, or derives from NServiceBus'
    /// <c>CustomCheck</c>): the host runs it once per probe or check period (a liveness probe every few seconds, a custom
    /// check or a publish every 30 s), never per operation, so the timeout it arms per run paces with the probe.
    /// Matched by name, so it holds with those packages unresolved.
    /// </summary>
    private static string? HealthCheckReason(INamedTypeSymbol type) =>
        type.InheritsFromNamed("CustomCheck", "NServiceBus.CustomChecks", orUnresolved: true) ||
        type.ImplementsNamed("IHealthCheck", "Microsoft.Extensions.Diagnostics.HealthChecks") ||
        type.ImplementsNamed("IHealthCheckPublisher", "Microsoft.Extensions.Diagnostics.HealthChecks")
            ? $"health check, run once per probe: {type.Name}"
            : null;

    /// <summary>
    /// The type, or a type it derives from, has the word Periodic in its name (<c>PeriodicRunner</c>,
    /// <c>PeriodicTimerSystemClockMonitor</c>, <c>CoordinatorAnnouncer : PeriodicRunner</c>): it exists to do its work once
    /// per period, so what it arms there paces, once per period, not per operation.
    /// </summary>
    private static string? PeriodicTypeReason(INamedTypeSymbol type)
    {
        for (var current = type; current is not null && current.SpecialType != SpecialType.System_Object; current = current.BaseType)
        {
            // The substring first: splitting every base type's name into words on each site would allocate for nothing.
            if (current.Name.IndexOf("Periodic", StringComparison.Ordinal) >= 0 && Words(current.Name).Contains("Periodic"))
            {
                return SymbolEqualityComparer.Default.Equals(current, type) ? $"pacing: {type.Name} runs once per period" : $"pacing: {type.Name} is a {current.Name}, run once per period";
            }
        }

        return null;
    }

    /// <summary>
    /// The type is one asynchronous operation by contract: it implements <c>System.IAsyncResult</c> (the APM pattern: one
    /// result object per begun operation) or <c>IValueTaskSource</c> (a pooled operation behind a <c>ValueTask</c>). Its
    /// <c>Start</c>, <c>Initialize</c> or <c>Close</c> runs once per operation, not once per component's life.
    /// </summary>
    private static bool IsOperationObject(INamedTypeSymbol? type)
    {
        foreach (var contract in type?.AllInterfaces ?? ImmutableArray<INamedTypeSymbol>.Empty)
        {
            var ns = contract.ContainingNamespace?.ToDisplayString();
            if ((contract.Name == "IAsyncResult" && ns == "System") || (contract.Name == "IValueTaskSource" && ns == "System.Threading.Tasks.Sources"))
            {
                return true;
            }
        }

        return false;
    }

    /// <summary>
    /// The member receives the context of a lifecycle step (<c>StopContext</c>, <c>ShutdownEventArgs</c>,
    /// <c>StartupContext</c>): a parameter whose type name ends in Context or Args after a lifecycle word. It runs as part
    /// of that step whatever it is called.
    /// </summary>
    private static string? LifecycleParameter(IMethodSymbol method)
    {
        foreach (var parameter in method.Parameters)
        {
            // `StopContext? context`: the struct inside the Nullable.
            var type = parameter.Type is INamedTypeSymbol { OriginalDefinition.SpecialType: SpecialType.System_Nullable_T } nullable
                ? nullable.TypeArguments[0]
                : parameter.Type;
            var words = Words(type.Name);
            if (words.Count < 2 || words[words.Count - 1] is not ("Context" or "Args"))
            {
                continue;
            }

            for (var i = 0; i < words.Count - 1; i++)
            {
                if (s_lifecycleWords.Contains(words[i]))
                {
                    return type.Name;
                }
            }
        }

        return null;
    }

    /// <summary>
    /// The MSBuild task namespace <paramref name="tree"/> imports (<c>Microsoft.Build.Framework</c>,
    /// <c>Microsoft.Build.Utilities</c>, <c>Microsoft.Build.Tasks</c>), or null. A file that uses MSBuild's task API is a
    /// build task or its helper (a deploy step, a code generator): it runs once per build or publish, never in a
    /// server's request path. Read from the using directives, so it holds with the MSBuild assemblies unresolved.
    /// </summary>
    internal static string? BuildTimeImport(SyntaxTree tree)
    {
        if (tree.GetRoot() is not CompilationUnitSyntax root)
        {
            return null;
        }

        return BuildTimeImport(root.Usings) ?? BuildTimeImportIn(root.Members);
    }

    private static string? BuildTimeImportIn(SyntaxList<MemberDeclarationSyntax> members)
    {
        foreach (var member in members)
        {
            if (member is BaseNamespaceDeclarationSyntax ns && (BuildTimeImport(ns.Usings) ?? BuildTimeImportIn(ns.Members)) is { } import)
            {
                return import;
            }
        }

        return null;
    }

    private static string? BuildTimeImport(SyntaxList<UsingDirectiveSyntax> usings)
    {
        foreach (var directive in usings)
        {
            var name = directive.Alias is null ? directive.Name?.ToString() : null;
            if (name is "Microsoft.Build.Framework" or "Microsoft.Build.Utilities" or "Microsoft.Build.Tasks")
            {
                return name;
            }
        }

        return null;
    }

    /// <summary>
    /// <paramref name="callback"/> (a lambda or a method group) is passed to <c>CancellationToken.Register</c> (or
    /// <c>UnsafeRegister</c>): it runs only when the token is cancelled, a shutdown or failure path like a catch block.
    /// </summary>
    internal static bool IsCancellationCallback(IOperation callback)
    {
        return callback.ConsumerSkippingDelegateCreation() is IArgumentOperation { Parent: IInvocationOperation { TargetMethod: { Name: "Register" or "UnsafeRegister" } register } } &&
               register.ContainingType is { Name: "CancellationToken", ContainingNamespace: { Name: "Threading", ContainingNamespace.Name: "System" } };
    }

    /// <summary>
    /// The name of the method or event <paramref name="callback"/> is registered with, when that name says shutdown or
    /// exit (<see cref="s_shutdownHookWords"/>): passed as an argument (<c>Application.RegisterExitAction(code =&gt; ...)</c>,
    /// <c>lifetime.OnStopping(() =&gt; ...)</c>) or added to an event (<c>AppDomain.CurrentDomain.ProcessExit += ...</c>).
    /// </summary>
    internal static string? ShutdownCallbackOf(IOperation callback)
    {
        // Read from the syntax, so a hook whose type the compilation cannot resolve (another project's
        // `Application.RegisterExitAction`) still counts: only its name is needed.
        // The lambda as written may be parenthesized, cast or wrapped in a delegate creation (`new EventHandler(...)`).
        var written = callback.Parent is IDelegateCreationOperation { Syntax: ObjectCreationExpressionSyntax creation } ? creation : callback.Syntax;
        while (written.Parent is ParenthesizedExpressionSyntax or CastExpressionSyntax)
        {
            written = written.Parent;
        }

        var name = written.Parent switch
        {
            ArgumentSyntax { Parent: ArgumentListSyntax { Parent: InvocationExpressionSyntax invocation } } => RightmostName(invocation.Expression),
            AssignmentExpressionSyntax assignment when assignment.IsKind(SyntaxKind.AddAssignmentExpression) && assignment.Right == written => RightmostName(assignment.Left),
            _ => null,
        };
        return name is not null && HasWord(name, s_shutdownHookWords) ? name : null;
    }

    /// <summary>
    /// The name an expression ends in: <c>Name</c> in <c>a.b.Name</c>, <c>?.Name</c>, <c>Name</c>, <c>Name!</c> and
    /// <c>(Name)</c>; the receiver's name in <c>a?.b</c>.
    /// </summary>
    internal static string? RightmostName(ExpressionSyntax expression) => expression switch
    {
        // `timer!.Change(...)`, `(timer).Change(...)`: the operand's name.
        PostfixUnaryExpressionSyntax postfix when postfix.IsKind(SyntaxKind.SuppressNullableWarningExpression) => RightmostName(postfix.Operand),
        ParenthesizedExpressionSyntax parenthesized => RightmostName(parenthesized.Expression),
        MemberAccessExpressionSyntax access => access.Name.Identifier.ValueText,
        MemberBindingExpressionSyntax binding => binding.Name.Identifier.ValueText,
        ConditionalAccessExpressionSyntax conditional => RightmostName(conditional.Expression),
        SimpleNameSyntax simple => simple.Identifier.ValueText,
        _ => null,
    };

    /// <summary>True when a segment of the assembly name ends in a test or benchmark word (<c>Foo.Tests</c>, <c>Foo.UnitTests</c>) or is test support (<c>Foo.TestCommon</c>).</summary>
    public static bool IsTestAssemblyName(string? assemblyName)
    {
        if (assemblyName is null)
        {
            return false;
        }

        foreach (var segment in assemblyName.Split('.', '-', '_'))
        {
            var words = Words(segment);
            if (words.Count > 0 && (s_testWords.Contains(words[words.Count - 1]) ||
                                    (words[0] == "Test" && s_testSupportWords.Contains(words[words.Count - 1]))))
            {
                return true;
            }
        }

        return false;
    }

    /// <summary>
    /// <paramref name="operation"/> is reached only through a catch block: a <c>try</c> before it in its block (or in
    /// one around it) has a catch that falls through while its body never does (it returns, throws, breaks or
    /// continues on every path): <c>try { return await Send(m); } catch (ConnectionLostException) { }
    /// await Task.Delay(retryDelay);</c>, the wait before a retry. A failure path, as the catch block itself is. Not
    /// across a lambda or a local function, and not in a member with a <c>goto</c> (a label after the <c>try</c> could be
    /// reached another way).
    /// </summary>
    private static bool AfterCaughtFailure(IOperation operation)
    {
        for (IOperation? child = operation, parent = operation.Parent; parent is not null; child = parent, parent = parent.Parent)
        {
            switch (parent)
            {
                case IAnonymousFunctionOperation or ILocalFunctionOperation:
                    return false;
                case IBlockOperation block:
                    var index = block.Operations.IndexOf(child);
                    for (var i = 0; i < index; i++)
                    {
                        if (block.Operations[i] is ITryOperation { Catches.Length: > 0 } attempt &&
                            OnlyCatchesFallThrough(attempt) &&
                            !HasGoTo(operation))
                        {
                            return true;
                        }
                    }

                    break;
            }
        }

        return false;

        static bool OnlyCatchesFallThrough(ITryOperation attempt)
        {
            if (attempt.Body.Syntax is not BlockSyntax body || attempt.SemanticModel is not { } model)
            {
                return false;
            }

            var flow = model.AnalyzeControlFlow(body);
            if (flow is not { Succeeded: true, EndPointIsReachable: false })
            {
                return false;
            }

            foreach (var handler in attempt.Catches)
            {
                if (handler.Handler.Syntax is BlockSyntax catchBody && model.AnalyzeControlFlow(catchBody) is { Succeeded: true, EndPointIsReachable: true })
                {
                    return true;
                }
            }

            return false;
        }

        static bool HasGoTo(IOperation site)
        {
            var root = site;
            while (root.Parent is not null)
            {
                root = root.Parent;
            }

            foreach (var node in root.Descendants())
            {
                if (node is IBranchOperation { BranchKind: BranchKind.GoTo })
                {
                    return true;
                }
            }

            return false;
        }
    }

    /// <summary>
    /// The code after <paramref name="operation"/> always throws before it can leave its block in the normal way: the
    /// block that holds the site (or one around it, reached by falling through) ends in a <c>throw</c>, with no
    /// <c>return</c>, <c>break</c>, <c>continue</c> or <c>goto</c> on the way from the site (one in another branch, an
    /// <c>else</c> that returns, is not on it) (<c>if (!valid) { await Task.Delay(2000);
    /// throw new BadRequestException(); }</c>: an anti-brute-force pause before failing a request). A failure path, as a
    /// catch block is. Not across a loop (a poll that returns when done and throws when it gives up polls on its normal
    /// path), a lambda or a local function.
    /// </summary>
    private static bool ThrowsNext(IOperation operation)
    {
        // Perf: asked of every site and of every call its cold callers follow. Most have no block around them that ends
        // in a throw; finding that takes one walk up, before any statement is read.
        if (!EndsInThrowAround(operation))
        {
            return false;
        }

        for (IOperation? child = operation, parent = operation.Parent; parent is not null; child = parent, parent = parent.Parent)
        {
            switch (parent)
            {
                case ILoopOperation or IAnonymousFunctionOperation or ILocalFunctionOperation or ISwitchCaseOperation:
                    return false;
                case IBlockOperation block:
                    var index = block.Operations.IndexOf(child);
                    if (index < 0)
                    {
                        continue;
                    }

                    // The statement that holds the site may leave on the site's path: a jump in another branch of an `if`
                    // whose body holds the site (an `else` that returns) is not on it, one anywhere else in it is (an
                    // `if` whose condition holds the site and whose body returns).
                    if (MayLeaveOnPath(operation, block.Operations[index]))
                    {
                        return false;
                    }

                    for (var i = index + 1; i < block.Operations.Length; i++)
                    {
                        var statement = block.Operations[i];
                        if (IsThrow(statement))
                        {
                            return true;
                        }

                        if (Leaves(statement))
                        {
                            return false;
                        }
                    }

                    break;
            }
        }

        return false;

        static bool EndsInThrowAround(IOperation site)
        {
            for (var parent = site.Parent; parent is not null; parent = parent.Parent)
            {
                switch (parent)
                {
                    case ILoopOperation or IAnonymousFunctionOperation or ILocalFunctionOperation or ISwitchCaseOperation:
                        return false;
                    case IBlockOperation { Operations.Length: > 0 } block when IsThrow(block.Operations[block.Operations.Length - 1]):
                        return true;
                }
            }

            return false;
        }

        static bool MayLeaveOnPath(IOperation site, IOperation statement)
        {
            for (IOperation? child = site, parent = site.Parent; parent is not null && !ReferenceEquals(child, statement); child = parent, parent = parent.Parent)
            {
                if (parent is IConditionalOperation branch && (ReferenceEquals(branch.WhenTrue, child) || ReferenceEquals(branch.WhenFalse, child)))
                {
                    // In one branch: only what that branch does after the site is on the path (a block's rest is read
                    // when the walk reaches that block; a branch that is a single jump leaves).
                    return child is IReturnOperation or IBranchOperation;
                }
            }

            return Leaves(statement);
        }

        static bool IsThrow(IOperation statement) => statement is IThrowOperation or IExpressionStatementOperation { Operation: IThrowOperation };

        // A statement that may leave the block by return, break, continue or goto (not through a lambda or a local function).
        static bool Leaves(IOperation statement)
        {
            if (statement is IReturnOperation or IBranchOperation)
            {
                return true;
            }

            foreach (var node in statement.Descendants())
            {
                if (node is IReturnOperation or IBranchOperation && !InNestedFunction(node, statement))
                {
                    return true;
                }
            }

            return false;
        }

        static bool InNestedFunction(IOperation node, IOperation statement)
        {
            for (var parent = node.Parent; parent is not null && !ReferenceEquals(parent, statement); parent = parent.Parent)
            {
                if (parent is IAnonymousFunctionOperation or ILocalFunctionOperation)
                {
                    return true;
                }
            }

            return false;
        }
    }

    /// <summary>
    /// Whole assembly-name segments that mark sample or demo code; Sandbox too (<c>OpenIddict.Sandbox.WinForms.Client</c>,
    /// <c>MessagePipe.Sandbox.ConsoleApp</c>: a program to try the library by hand), as a whole segment only
    /// (<c>PayPalSandboxClient</c> talks to a payment sandbox in production code).
    /// </summary>
    private static readonly ImmutableHashSet<string> s_sampleSegments = ImmutableHashSet.Create(
        StringComparer.OrdinalIgnoreCase, "Sample", "Samples", "Example", "Examples", "Demo", "Demos", "Sandbox");

    /// <summary>Last words of an assembly-name segment that name one sample or demo program (<c>ConsoleSample</c>, <c>ImapClientDemo</c>).</summary>
    private static readonly ImmutableHashSet<string> s_sampleProgramWords = ImmutableHashSet.Create(StringComparer.Ordinal, "Sample", "Example", "Demo");

    /// <summary>
    /// True when a segment of the assembly name is a sample word (<c>Contoso.Samples</c>, <c>Orders.Example.Api</c>) or ends
    /// in a singular one (<c>ConsoleSample</c>, <c>ImapClientDemo</c>): a program that shows how to use a library, run by
    /// hand. Not a plural at the end of a longer segment, which names what a product handles (<c>AudioSamples</c>).
    /// </summary>
    public static bool IsSampleAssemblyName(string? assemblyName)
    {
        if (assemblyName is null)
        {
            return false;
        }

        foreach (var segment in assemblyName.Split('.', '-', '_'))
        {
            var words = Words(segment);
            if (s_sampleSegments.Contains(segment) || (words.Count > 1 && s_sampleProgramWords.Contains(words[words.Count - 1])))
            {
                return true;
            }
        }

        return false;
    }

    /// <summary>True when a segment of the assembly name is <c>Cli</c> in any case (<c>Aspire.Cli</c>, <c>dotnet-cli</c>); not <c>Client</c>.</summary>
    public static bool IsCommandLineToolName(string? assemblyName)
    {
        if (assemblyName is null)
        {
            return false;
        }

        foreach (var segment in assemblyName.Split('.', '-', '_'))
        {
            if (string.Equals(segment, "Cli", StringComparison.OrdinalIgnoreCase))
            {
                return true;
            }
        }

        return false;
    }

    /// <summary>
    /// A lifecycle step by name: its last word (<see cref="s_lifecycleWords"/>), its leading verb
    /// (<see cref="s_lifecycleVerbs"/>) or a phase noun anywhere (<see cref="s_lifecyclePhaseNouns"/>); the
    /// <paramref name="perUseWords"/> do not count as a last word or a leading verb.
    /// </summary>
    private static bool NamesLifecycle(List<string> words, ImmutableHashSet<string> perUseWords)
    {
        var last = LastWordIndex(words);
        return last >= 0 && ((s_lifecycleWords.Contains(words[last]) && !perUseWords.Contains(words[last])) ||
                             (s_lifecycleVerbs.Contains(words[0]) && !perUseWords.Contains(words[0])) || Any(words, s_lifecyclePhaseNouns));
    }

    /// <summary>
    /// The index of the word that says what a member does: the last one before the suffixes <c>Async</c>, <c>Core</c>,
    /// <c>Internal</c>, <c>Impl</c> (<c>OpenInternalAsync</c>: Open); -1 for no words.
    /// </summary>
    internal static int LastWordIndex(List<string> words)
    {
        var last = words.Count - 1;
        while (last > 0 && s_suffixWords.Contains(words[last]))
        {
            last--;
        }

        return last;
    }

    /// <summary>
    /// What a member's name says about how often it runs, wherever the words stand: it handles a configuration change
    /// (<c>ConfigUpdatedAsync</c>, <c>OnConfigurationChanged</c>, <c>ListenForConfigChanges</c>: reloads are rare), it
    /// sweeps expired items (<c>DeleteExpiredPayloadsAsync</c>, <c>RemoveExpiredEntries</c>: housekeeping on a period),
    /// it probes or reads health (<c>ProbeDestinationAsync</c>, <c>GetHealthAsync</c>: health probes run on a monitor's
    /// period), it signs a person in
    /// interactively (<see cref="InteractiveSignIn"/>), or it handles a failure (<see cref="s_failureWords"/>). Null when none. Not applied
    /// inside a loop of the member: what a sweep or a reload does per item is still per item.
    /// </summary>
    internal static string? RareEvent(string name)
    {
        var words = MemberWords(name);
        var configuration = false;
        var change = false;
        var last = LastWordIndex(words);
        if (last >= 0 && s_failureWords.Contains(words[last]))
        {
            return "failure handler";
        }

        foreach (var word in words)
        {
            if (word is "Expired")
            {
                return "housekeeping sweep";
            }

            if (word is "Probe" or "Probing" or "Health" or "Healthy")
            {
                // Health reads too (`GetHealthAsync`, `WaitUntilHealthy`): a monitor or a start-up wait asks, on its own period.
                return "periodic probe";
            }

            if (word is "Revoked" or "Rebalance" or "Rebalanced" or "Rebalancing")
            {
                // A consumer group's partitions or a processor's leases moving between members: a rebalance, not an operation.
                return "rebalance";
            }

            if (word is "Reload" or "Reloading")
            {
                // Re-reading settings, endpoints or certificates after they changed: one rare event.
                return "reload";
            }

            configuration |= s_configurationWords.Contains(word);
            change |= s_changeWords.Contains(word);
        }

        return configuration && change ? "configuration change" : InteractiveSignIn(words) ? "interactive sign-in" : null;
    }

    /// <summary>
    /// A sign-in that waits on a person: an interactive flow (<c>AcquireTokenInteractiveAsync</c>) or a device-code flow
    /// (<c>AcquireTokenWithDeviceCode</c>, <c>AcquireTokenInteractiveDeviceFlowAsync</c>), where a user types a code or
    /// answers a browser prompt. Its timeout (minutes) bounds one person's sign-in: human-paced, never per operation. Both
    /// word groups are needed: <c>InteractiveQuery</c> is a per-request read.
    /// </summary>
    private static bool InteractiveSignIn(List<string> words)
    {
        var interactive = false;
        var credential = false;
        for (var i = 0; i < words.Count; i++)
        {
            interactive |= words[i] == "Interactive" || (words[i] == "Device" && i + 1 < words.Count && words[i + 1] is "Code" or "Flow");
            credential |= s_credentialWords.Contains(words[i]);
        }

        return interactive && credential;
    }

    private static bool HasWord(string name, ImmutableHashSet<string> words) => Any(Words(name), words);

    /// <summary>A phase noun anywhere in the words of a name (<see cref="s_lifecyclePhaseNouns"/>: <c>RunShutdownTask</c>).</summary>
    internal static bool NamesLifecyclePhase(List<string> words) => Any(words, s_lifecyclePhaseNouns);

    private static bool Any(List<string> words, ImmutableHashSet<string> set)
    {
        foreach (var word in words)
        {
            if (set.Contains(word))
            {
                return true;
            }
        }

        return false;
    }

    /// <summary>The words of a member's own name, without an explicit interface implementation's prefix (<c>IFoo.StopAsync</c>: Stop, Async).</summary>
    internal static List<string> MemberWords(string name) => Words(name.Substring(name.LastIndexOf('.') + 1));

    /// <summary>Splits <c>StopAndDrainAsync</c> into Stop, And, Drain, Async; acronyms stay one word (<c>IOTimeout</c>: IO, Timeout).</summary>
    internal static List<string> Words(string name)
    {
        var words = new List<string>();
        var start = -1;
        for (var i = 0; i < name.Length; i++)
        {
            var c = name[i];
            if (!char.IsLetterOrDigit(c))
            {
                Flush(i);
                continue;
            }

            var boundary = start >= 0 && char.IsUpper(c) &&
                           (char.IsLower(name[i - 1]) || char.IsDigit(name[i - 1]) || (i + 1 < name.Length && char.IsLower(name[i + 1]) && char.IsUpper(name[i - 1])));
            if (boundary)
            {
                Flush(i);
            }

            if (start < 0)
            {
                start = i;
            }
        }

        Flush(name.Length);
        return words;

        void Flush(int end)
        {
            if (start >= 0)
            {
                words.Add(char.ToUpperInvariant(name[start]) + name.Substring(start + 1, end - start - 1));
                start = -1;
            }
        }
    }
}
