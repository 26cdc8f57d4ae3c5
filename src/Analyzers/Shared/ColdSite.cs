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
/// Cold evidence beyond member and type names (docs/hot-paths.md, "Cold evidence"): what a timer's timeout is called
/// (at the timer site only, <see cref="ColdContext.SiteReason"/>), what a timeout source bounds (asked last, by
/// <see cref="HotPathModel.Reason"/>, of a site about to be reported) and whether the code is a Blazor component (also
/// for the call sites <see cref="ColdCallers"/> weighs). Syntax and names only, as <see cref="ColdContext"/>, so
/// unresolved references do not hide the evidence.
/// </summary>
internal static class ColdSite
{
    /// <summary>
    /// Lifecycle words that, right before <c>Timeout</c> in the name of the value a timer is given, say which step the
    /// timeout bounds: <c>ConnectTimeout</c>, <c>ConnectionTimeout</c>, <c>ShutdownTimeout</c>, <c>HandshakeTimeout</c>,
    /// <c>WaitForProcessExitTimeout</c>, <c>CloseTimeout</c> (once per connection closed). Only right before:
    /// <c>ConnectionIdleTimeout</c> is a per-connection idle timer re-armed on every I/O, and <c>StartTimeout</c> reads as
    /// often "the timeout of a start" as "start a timeout". Not Drain: a <c>_drainTimeout</c> also names the quiet
    /// deadline of a stream read item by item.
    /// </summary>
    private static readonly ImmutableHashSet<string> s_lifecycleTimeoutWords = ImmutableHashSet.Create(
        StringComparer.OrdinalIgnoreCase,
        "Connect", "Connection", "Reconnect", "Handshake", "Login", "Logon", "Startup", "Init", "Initialize", "Initialization", "Bootstrap", "Warmup",
        "Shutdown", "Stop", "Dispose", "Disposal", "Termination", "Exit", "Close", "Closing", "Teardown");

    /// <summary>
    /// Words that, anywhere in a name that also says Duration, make it the length of a wait or a timeout rather than of
    /// a run: <c>timeoutDuration</c>, <c>delayDuration</c>, <c>armedFailureDelayDuration</c>; or a limit on a run, which
    /// the run usually ends first (<c>MaxAutoRenewDuration</c>: a cut-off, a timeout by another name); or how long a lease
    /// or a lock lasts (<c>LeaseDuration</c>, <c>LockDuration</c>: it expires only if its holder neither renews nor
    /// releases it, so a timer on it is a timeout per message or per acquire, usually cancelled).
    /// </summary>
    private static readonly ImmutableHashSet<string> s_waitWords = ImmutableHashSet.Create(
        StringComparer.OrdinalIgnoreCase, "Timeout", "Delay", "Interval", "Period", "Wait", "Backoff", "Max", "Maximum", "Limit", "Lease", "Lock");

    /// <summary>
    /// What the names the timer's time arguments read (directly or through a local's initializer) say, in one pass: the
    /// timeout bounds a lifecycle step (<see cref="s_lifecycleTimeoutWords"/> right before Timeout), or the time is a run
    /// length (the word Duration and none of <see cref="s_waitWords"/>: <c>request.Duration</c>, <c>RuleDuration</c>,
    /// <c>durationInSeconds</c>; such a timer ends work that runs that long, a capture or a load run, and usually fires,
    /// once per long run, which is not the cost of a timeout created per operation and cancelled). Null when neither.
    /// Cancellation-token arguments are not read: a <c>shutdownToken</c> says when the work stops, not how often it starts.
    /// A parameter's name (<c>duration</c>) yields to what its callers pass, when one of them names a timeout or a lease
    /// (<see cref="CallersNameAWait"/>).
    /// </summary>
    internal static string? TimeNameReason(IOperation operation, ISymbol containingSymbol, ColdCallers callers, CancellationToken cancellationToken)
    {
        foreach (var value in TimeArguments(operation))
        {
            foreach (var name in NamesRead(value))
            {
                var words = ColdContext.Words(name);
                if (NamesLifecycleTimeout(words, containingSymbol))
                {
                    return $"lifecycle: the timeout is {name}";
                }

                if (NamesRunLength(words) && !ReadAsAFraction(value, name) && !CallersNameAWait(value, name, callers, cancellationToken))
                {
                    return $"run length: the time is {name}";
                }
            }
        }

        return null;
    }

    /// <summary>Words that, first or last in a called method's name, say the call sets up a connection (<see cref="BoundCallReason"/>).</summary>
    private static readonly ImmutableHashSet<string> s_connectionStepWords = ImmutableHashSet.Create(StringComparer.Ordinal, "Connect", "Reconnect", "Handshake");

    /// <summary>
    /// Words that, last in a called method's name, say the call takes something down (<c>websocket.CloseAsync(status,
    /// reason, cts.Token)</c>, <c>client.DisconnectAsync(cts.Token)</c>, <c>bus.StopAsync(cts.Token)</c>): once per connection,
    /// channel or host, at its end (<see cref="BoundCallReason"/>). Only last: <c>StopTimer</c>, <c>CloseStream</c> lead with them.
    /// </summary>
    private static readonly ImmutableHashSet<string> s_closingStepWords = ImmutableHashSet.Create(StringComparer.Ordinal, "Close", "Disconnect", "Stop");

    /// <summary>
    /// Words that, first or last in a called method's name, say the call signs in (<c>client.AuthenticateAsync(user, password, token)</c>,
    /// <c>LoginAsync</c>): set-up only after a connect bounded by the same source (<see cref="BoundCallReason"/>), since a
    /// plain Authenticate also runs per request (ASP.NET Core's <c>AuthenticateAsync</c>).
    /// </summary>
    private static readonly ImmutableHashSet<string> s_signInStepWords = ImmutableHashSet.Create(StringComparer.Ordinal, "Authenticate", "Login", "Logon");

    /// <summary>
    /// The timeout source (a <c>new CancellationTokenSource(timeout)</c>, or the local a <c>CancelAfter</c> arms) bounds only
    /// connection set-up or take-down: its token goes nowhere but to calls named for connecting, handshaking, closing,
    /// disconnecting or stopping (<see cref="s_closingStepWords"/>)
    /// (<c>websocket.ConnectAsync(uri, cts.Token)</c>, <c>ConnectWebSocketAsync</c>, <c>PerformHandshakeAsync</c>,
    /// <c>ssl.AuthenticateAsServerAsync(options, cts.Token)</c>: a TLS handshake), or to such a call and then to sign-in calls
    /// (<c>smtp.ConnectAsync(host, port, options, cts.Token)</c> then <c>smtp.AuthenticateAsync(user, password, cts.Token)</c>), as
    /// arguments, in the member that holds it, and the source itself goes nowhere but its own <c>Dispose</c>,
    /// <c>CancelAfter</c>, <c>Cancel</c> and <c>IsCancellationRequested</c>. It runs once per connection whatever the member is
    /// called. Not Open: a pooled database connection is opened per request. Null when the token or the source goes
    /// anywhere else, or the token nowhere.
    /// </summary>
    internal static string? BoundCallReason(IOperation operation)
    {
        ILocalSymbol? local;
        switch (operation)
        {
            case IObjectCreationOperation { Type.Name: "CancellationTokenSource" } creation:
                if (creation.ConsumerSkippingConversions() is IPropertyReferenceOperation { Property.Name: "Token" } inline)
                {
                    return ConnectionCallOf(inline.Syntax) is { } call ? $"set-up or lifecycle step: the timeout bounds {call}" : null;
                }

                local = Storage.Of(TimerLifetime.SelectedBy(creation)) as ILocalSymbol;
                break;
            case IInvocationOperation { TargetMethod.Name: "CancelAfter" } cancelAfter when cancelAfter.Instance.ThroughConditionalAccess() is ILocalReferenceOperation armed:
                // `cts.CancelAfter(t)`, or `cts?.CancelAfter(t)`: the same local.
                local = armed.Local;
                break;
            default:
                return null;
        }

        if (local is null)
        {
            return null;
        }

        var root = operation;
        while (root.Parent is not null)
        {
            root = root.Parent;
        }

        string? bound = null;
        foreach (var reference in root.Descendants().OfType<ILocalReferenceOperation>())
        {
            if (!SymbolEqualityComparer.Default.Equals(reference.Local, local))
            {
                continue;
            }

            switch (reference.Parent)
            {
                case IPropertyReferenceOperation { Property.Name: "Token" } token:
                    if (ConnectionCallOf(token.Syntax) is { } call)
                    {
                        bound ??= call;
                    }
                    else if (!IsSignInCall(token.Syntax) &&
                             !(TimerLifetime.KeptTokenVariable(token) is ILocalSymbol tokenLocal && TokenLocalBoundsConnection(root, tokenLocal, ref bound)))
                    {
                        return null;
                    }

                    break;
                case IInvocationOperation { TargetMethod.Name: "Dispose" or "CancelAfter" or "Cancel" } own when ReferenceEquals(own.Instance, reference):
                case IConditionalAccessOperation { WhenNotNull: IInvocationOperation { TargetMethod.Name: "Dispose" or "CancelAfter" or "Cancel", Instance: IConditionalAccessInstanceOperation } } access
                    when ReferenceEquals(access.Operation, reference):
                case IPropertyReferenceOperation { Property.Name: "IsCancellationRequested" }:
                    break;
                default:
                    // The source itself goes on (an argument, a field, a return): it may bound more than the connect.
                    return null;
            }
        }

        return bound is null ? null : $"set-up or lifecycle step: the timeout bounds {bound}";
    }

    // `var token = cts.Token;`: every read of `tokenLocal` is an argument of a connect or handshake call (at least one,
    // kept in `bound`) or of a sign-in call; the write that stores the token is not a read.
    private static bool TokenLocalBoundsConnection(IOperation root, ILocalSymbol tokenLocal, ref string? bound)
    {
        string? call = null;
        foreach (var reference in root.Descendants().OfType<ILocalReferenceOperation>())
        {
            if (!SymbolEqualityComparer.Default.Equals(reference.Local, tokenLocal) ||
                reference.Parent is ISimpleAssignmentOperation assignment && ReferenceEquals(assignment.Target, reference))
            {
                continue;
            }

            if (ConnectionCallOf(reference.Syntax) is { } connect)
            {
                call ??= connect;
            }
            else if (!IsSignInCall(reference.Syntax))
            {
                return false;
            }
        }

        bound ??= call;
        return call is not null;
    }

    // The name of the call that `tokenRead` is an argument of, when that name says it connects or handshakes, or names a
    // lifecycle phase anywhere (`RunShutdownTask`, `ExecuteStartupTasksAsync`: once per process). Read from the syntax,
    // so a call the compilation cannot bind (a client type from a missing assembly) still counts.
    private static string? ConnectionCallOf(SyntaxNode tokenRead)
    {
        if (CalledName(tokenRead) is not { } name)
        {
            return null;
        }

        var words = ColdContext.Words(name);
        return StartsOrEndsWith(words, s_connectionStepWords) || EndsWith(words, s_closingStepWords) || IsTlsHandshake(words) || ColdContext.NamesLifecyclePhase(words) ? name : null;
    }

    // The call that `tokenRead` is an argument of signs in (s_signInStepWords first or last in its name). It counts only
    // beside a connect bounded by the same source: `bound` stays null without one.
    private static bool IsSignInCall(SyntaxNode tokenRead) =>
        CalledName(tokenRead) is { } name && StartsOrEndsWith(ColdContext.Words(name), s_signInStepWords);

    // The last word of a name before the suffixes (Async, Core, ...) is one of `step`.
    private static bool EndsWith(List<string> words, ImmutableHashSet<string> step)
    {
        var last = ColdContext.LastWordIndex(words);
        return last >= 0 && step.Contains(words[last]);
    }

    // The first word of a name, or its last before the suffixes (Async, Core, ...), is one of `step`.
    private static bool StartsOrEndsWith(List<string> words, ImmutableHashSet<string> step)
    {
        var last = ColdContext.LastWordIndex(words);
        return last >= 0 && (step.Contains(words[0]) || step.Contains(words[last]));
    }

    // The name of the method called with `tokenRead` as an argument (`ConnectAsync` in `client.ConnectAsync(uri, cts.Token)`), or null.
    private static string? CalledName(SyntaxNode tokenRead) =>
        tokenRead.Parent is ArgumentSyntax { Parent: ArgumentListSyntax { Parent: InvocationExpressionSyntax invocation } } ? ColdContext.RightmostName(invocation.Expression) : null;

    // SslStream's and NegotiateStream's AuthenticateAsClient/AuthenticateAsServer(Async): the TLS or Negotiate handshake of a
    // new connection. Not a plain Authenticate (ASP.NET Core's AuthenticateAsync runs per request).
    private static bool IsTlsHandshake(List<string> words) =>
        words.Count >= 3 && words[0] == "Authenticate" && words[1] == "As" && words[2] is "Client" or "Server";

    /// <summary>
    /// The values of the call's time parameters (<c>int</c>, <c>long</c>, <c>uint</c>, <c>double</c>, <c>TimeSpan</c>); for a
    /// call bound only to candidates (<see cref="UnresolvedCall"/>), every time-typed or unresolved value.
    /// </summary>
    private static IEnumerable<IOperation> TimeArguments(IOperation operation)
    {
        foreach (var argument in operation.CallArguments())
        {
            if (argument.Parameter is { } parameter && IsTimeType(parameter.Type))
            {
                yield return argument.Value;
            }
        }

        if (operation is IInvalidOperation)
        {
            foreach (var child in operation.ChildOperations)
            {
                if (child.Type is { } type && (type.TypeKind == TypeKind.Error || IsTimeType(type)))
                {
                    yield return child;
                }
            }
        }
    }

    /// <summary>
    /// Every read of <paramref name="name"/> in <paramref name="argument"/> (or in the initializer of a local it reads) is
    /// divided (<c>duration / 2</c>, <c>period</c> with <c>var period = duration / 2;</c>): the timer is due at a fraction of
    /// that length, before the run it measures ends (a renewal at half a lease), so the name says nothing of a run the
    /// timer ends.
    /// </summary>
    private static bool ReadAsAFraction(IOperation argument, string name)
    {
        var seen = false;
        foreach (var read in IdentifiersRead(argument))
        {
            if (read.Identifier.ValueText != name)
            {
                continue;
            }

            seen = true;
            if (!IsDivided(read))
            {
                return false;
            }
        }

        return seen;

        // Through conversions and calls too (`TimeSpan.FromSeconds(durationSeconds) / 2`), up to the statement.
        static bool IsDivided(SyntaxNode read)
        {
            for (var node = read; node.Parent is ExpressionSyntax or ArgumentSyntax or ArgumentListSyntax; node = node.Parent)
            {
                if (node.Parent is BinaryExpressionSyntax divide && divide.IsKind(SyntaxKind.DivideExpression) && divide.Left == node)
                {
                    return true;
                }
            }

            return false;
        }
    }

    /// <summary>
    /// <paramref name="name"/>, read in <paramref name="argument"/>, is a by-value parameter of an ordinary method or
    /// constructor whose every call the compilation shows, and one of those calls passes a value whose names say a wait,
    /// a timeout or a lease (<see cref="s_waitWords"/>): <c>ArmExpiry(inflight, DefaultLease)</c> for
    /// <c>ArmExpiry(InFlight inflight, TimeSpan duration)</c>, a lease's expiry, not the length of a run.
    /// </summary>
    private static bool CallersNameAWait(IOperation argument, string name, ColdCallers callers, CancellationToken cancellationToken)
    {
        if (argument.SemanticModel is not { } model)
        {
            return false;
        }

        foreach (var read in IdentifiersRead(argument))
        {
            if (read.Identifier.ValueText != name ||
                model.GetSymbolInfo(read, cancellationToken).Symbol is not IParameterSymbol { RefKind: RefKind.None, ContainingSymbol: IMethodSymbol { MethodKind: MethodKind.Ordinary or MethodKind.Constructor } method } parameter)
            {
                continue;
            }

            var calls = callers.Calls(method, cancellationToken);
            if (calls.IsDefault)
            {
                return false;
            }

            foreach (var call in calls)
            {
                foreach (var passed in call.CallArguments())
                {
                    if (passed.Parameter?.Ordinal == parameter.Ordinal && NamesRead(passed.Value).Any(static n => ColdContext.Words(n).Any(s_waitWords.Contains)))
                    {
                        return true;
                    }
                }
            }
        }

        return false;
    }

    private static bool NamesRunLength(List<string> words)
    {
        var duration = false;
        foreach (var word in words)
        {
            if (s_waitWords.Contains(word))
            {
                return false;
            }

            duration |= string.Equals(word, "Duration", StringComparison.OrdinalIgnoreCase);
        }

        return duration;
    }

    private static bool NamesLifecycleTimeout(List<string> words, ISymbol containingSymbol)
    {
        for (var i = 0; i + 1 < words.Count; i++)
        {
            // Case-insensitive, so constants in capitals count too (DEFAULT_CONNECT_TIMEOUT_MS). A ConnectionTimeout
            // used where requests are sent is the client's I/O timeout, not its connect timeout (see SendsRequests).
            if (string.Equals(words[i + 1], "Timeout", StringComparison.OrdinalIgnoreCase) && s_lifecycleTimeoutWords.Contains(words[i]) &&
                !(string.Equals(words[i], "Connection", StringComparison.OrdinalIgnoreCase) && SendsRequests(containingSymbol)))
            {
                return true;
            }
        }

        return false;
    }

    /// <summary>
    /// The member's last word (before the suffixes) says it sends a request or executes an operation: Send, Request,
    /// Execute, Operation, Invoke, Call, Query, Command (<c>SendAsync</c>, <c>ExecuteOperationAsync</c>). There a
    /// <c>ConnectionTimeout</c> bounds each request: the name is ambiguous, the login or connect timeout in ADO.NET-style
    /// code and the I/O timeout in some RPC and cache clients (a JSON-RPC client's <c>SendAsync</c>, a memcached node's
    /// <c>ExecuteOperationAsync</c>), and a member that sends a request settles it.
    /// </summary>
    private static bool SendsRequests(ISymbol containingSymbol)
    {
        if (containingSymbol is not IMethodSymbol { MethodKind: MethodKind.Ordinary or MethodKind.ExplicitInterfaceImplementation } method)
        {
            return false;
        }

        var words = ColdContext.MemberWords(method.Name);
        var last = ColdContext.LastWordIndex(words);
        return last >= 0 && words[last] is "Send" or "Request" or "Execute" or "Operation" or "Invoke" or "Call" or "Query" or "Command";
    }

    private static bool IsTimeType(ITypeSymbol type) =>
        type.SpecialType is SpecialType.System_Int32 or SpecialType.System_Int64 or SpecialType.System_UInt32 or SpecialType.System_Double ||
        type is { Name: "TimeSpan", ContainingNamespace.Name: "System" };

    // The identifiers of an argument, and of the initializers of the locals it reads (one level: `var timeout =
    // parameters.ConnectionTimeout * 1000;`): the declarations of the locals the argument binds to, so a local of the
    // same name elsewhere in the member is not read, and one declared by an earlier top-level statement is.
    private static IEnumerable<string> NamesRead(IOperation argument) => IdentifiersRead(argument).Select(static read => read.Identifier.ValueText);

    // The names the argument reads, directly or through the initializer of a local it reads.
    private static IEnumerable<IdentifierNameSyntax> IdentifiersRead(IOperation argument)
    {
        foreach (var identifier in argument.Syntax.DescendantNodesAndSelf().OfType<IdentifierNameSyntax>())
        {
            yield return identifier;
        }

        foreach (var reference in argument.DescendantsAndSelf().OfType<ILocalReferenceOperation>())
        {
            foreach (var declaration in reference.Local.DeclaringSyntaxReferences)
            {
                if (declaration.GetSyntax() is VariableDeclaratorSyntax { Initializer: { } initializer })
                {
                    foreach (var read in initializer.Value.DescendantNodesAndSelf().OfType<IdentifierNameSyntax>())
                    {
                        yield return read;
                    }
                }
            }
        }
    }

    /// <summary>
    /// The site is in a Blazor component (a <c>.razor</c> file or its <c>.razor.cs</c> code-behind, or a type deriving
    /// from <c>Microsoft.AspNetCore.Components.ComponentBase</c>): what it does runs at the pace of a person using a page.
    /// </summary>
    internal static string? UserInterfaceType(IOperation operation, ISymbol containingSymbol)
    {
        var path = operation.Syntax.SyntaxTree.FilePath;
        if (path.EndsWith(".razor.cs", StringComparison.OrdinalIgnoreCase) || path.EndsWith(".razor", StringComparison.OrdinalIgnoreCase))
        {
            return containingSymbol.ContainingType?.Name ?? System.IO.Path.GetFileName(path);
        }

        for (var type = containingSymbol.ContainingType; type is not null; type = type.ContainingType)
        {
            if (type.InheritsFromNamed("ComponentBase", "Microsoft.AspNetCore.Components", orUnresolved: false))
            {
                return type.Name;
            }
        }

        return null;
    }
}
