using System;
using System.Collections.Immutable;
using System.Threading;
using CoarseTimers.Analyzers.Internals;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.Operations;

namespace CoarseTimers.Analyzers.Shared;

/// <summary>The hot-path rules a caller asks about (docs/hot-paths.md numbers them 1–5).</summary>
[Flags]
internal enum HotPathRules
{
    None = 0,

    /// <summary>Rule 1: inside the body of a loop of the same member.</summary>
    Loop = 1,

    /// <summary>Rule 2: inside a delegate passed as the per-item body of Parallel/List.ForEach/Select/SelectMany.</summary>
    PerItemDelegate = 2,

    /// <summary>Rule 3: the call is a per-operation timeout (the caller decides that it is one).</summary>
    PerOperationTimeout = 4,

    /// <summary>Rule 4: the member or a containing type carries a hot-path attribute.</summary>
    Declared = 8,

    /// <summary>Rules 1, 2 and 4: what every rule asks about (CT0001 and CT0002 add rule 3 where it applies).</summary>
    LoopsDelegatesDeclared = Loop | PerItemDelegate | Declared,

    /// <summary>
    /// The site is an awaited sleep: rule 1 applies only to a short constant delay (below the polling threshold) in a loop
    /// that does not catch (a loop with a catch retries: its delay is backoff), and a run loop's delay is pacing.
    /// </summary>
    Sleep = 16,

    /// <summary>A per-operation timeout (rule 3) directly inside a run loop, with a delay that is not short, is pacing.</summary>
    RunLoopPaces = 32,
}

/// <summary>
/// Decides whether a call site is hot, and says why in words the diagnostic message shows. The model is documented in
/// docs/hot-paths.md; the tests follow it.
/// </summary>
internal static class HotPathModel
{
    /// <summary>A timeout at least this long (a day) is one nobody expects to fire; it paces no loop.</summary>
    internal const double NeverFiresMilliseconds = 24 * 60 * 60 * 1000;

    public const string ScopeAll = "hot_path_scope = all";
    public const string Declared = "declared hot path";
    public const string InsideLoop = "inside a loop";
    public const string PerStreamItem = "per item of an await foreach";
    public const string PerItemDelegate = "per-item delegate";
    public const string PerOperationTimeout = "per-operation timeout";
    public const string ShortPollingDelay = "short polling delay in a loop";
    public const string ShortPollingDelayInCallersLoop = "short polling delay in a method its callers call in a loop";
    public const string PerRequestPollingDelay = "polling delay in a loop of a per-request controller or hub";
    public const string PerRequestSleep = "sleep per request of a MediatR handler";

    /// <summary>
    /// Words of a flag or signal that tracks whether its owner still runs (a run loop's condition reads one): also the
    /// process's or owner's exit (<c>while (!_processExit.Task.IsCompleted)</c>, <c>while (!_exitRequested)</c>) and a
    /// request to stop (<c>while (!_stopRequested)</c>).
    /// </summary>
    private static readonly ImmutableHashSet<string> s_ownerStateWords = ImmutableHashSet.Create(
        StringComparer.Ordinal, "Disposed", "Disposing", "Stop", "Stopped", "Stopping", "Shutdown", "Closed", "Closing", "Running", "Terminated", "Alive",
        "Exit", "Exiting", "Exited");

    private static readonly ImmutableHashSet<string> s_perItemParameters = ImmutableHashSet.Create("body", "action", "selector", "collectionSelector", "resultSelector");

    /// <summary>
    /// The reason <paramref name="operation"/> is hot under <paramref name="rules"/>, or null when it is not.
    /// <paramref name="pacingMilliseconds"/> is the call's constant delay, if any: a loop paced by a delay at least
    /// <see cref="AnalyzerSettings.PacingThresholdMilliseconds"/> long is pacing, not a hot path.
    /// <paramref name="perOperationReason"/> names the timer-lifetime evidence behind rule 3 (default: "per-operation timeout").
    /// Rules 1–3 never apply in test code or a cold context (<see cref="ColdContext"/>); rules 4 and 5 always do.
    /// </summary>
    public static string? Reason(IOperation operation, ISymbol containingSymbol, KnownSymbols symbols, AnalyzerSettings settings, HotPathRules rules,
        double? pacingMilliseconds = null, string? perOperationReason = null, CancellationToken cancellationToken = default)
    {
        var reason = ReasonBeforeBoundCall(operation, containingSymbol, symbols, settings, rules, pacingMilliseconds, perOperationReason, cancellationToken);

        // The last piece of cold evidence (ColdSite.BoundCallReason: a timeout that bounds only a connect), asked only of a
        // site about to be reported by rules 1–3, because it walks the member's operations.
        return reason is null or ScopeAll or Declared || ColdSite.BoundCallReason(operation) is null ? reason : null;
    }

    private static string? ReasonBeforeBoundCall(IOperation operation, ISymbol containingSymbol, KnownSymbols symbols, AnalyzerSettings settings, HotPathRules rules,
        double? pacingMilliseconds, string? perOperationReason, CancellationToken cancellationToken)
    {
        if (settings.Scope == HotPathScope.All)
        {
            return ScopeAll;
        }

        if ((rules & HotPathRules.Declared) != 0 && IsDeclaredHot(operation, containingSymbol, settings))
        {
            return Declared;
        }

        if (settings.Scope == HotPathScope.Declared || symbols.IsColdProject(settings) ||
            ColdContext.SiteReason(operation, containingSymbol, symbols, cancellationToken) is not null)
        {
            return null;
        }

        var sleep = (rules & HotPathRules.Sleep) != 0;
        // A timeout too long ever to fire (a day or more: `CancelAfter(int.MaxValue)`, "effectively no timeout") paces
        // nothing: a loop that arms one per turn queues a timer per turn that is always cancelled.
        var neverFires = !sleep && pacingMilliseconds is double longest && longest >= NeverFiresMilliseconds;
        // An ASP.NET Core controller or SignalR hub is created per request or hub call: a sleep in a loop of its code polls
        // for that request (a segment not yet written, a score not yet stored) at any delay below the pacing threshold.
        // Asked only of a constant sleep between the two thresholds.
        var perRequest = sleep && pacingMilliseconds is double between && between >= settings.PollingThresholdMilliseconds &&
            between < settings.PacingThresholdMilliseconds && IsPerRequestType(containingSymbol.ContainingType);
        var pollingLimit = perRequest ? settings.PacingThresholdMilliseconds : settings.PollingThresholdMilliseconds;
        var shortDelay = neverFires || pacingMilliseconds is double constant && constant < (sleep ? pollingLimit : settings.PacingThresholdMilliseconds);
        var paced = sleep ? !shortDelay : !neverFires && pacingMilliseconds is double ms && ms >= settings.PacingThresholdMilliseconds;
        var insideFunction = false;
        var insideLambda = false;
        var inLoop = false;
        var child = operation;
        for (var parent = operation.Parent; parent is not null; child = parent, parent = parent.Parent)
        {
            switch (parent)
            {
                case ILoopOperation loop when ReferenceEquals(loop.Body, child):
                    inLoop |= !insideFunction;
                    if (!shortDelay && (rules & (HotPathRules.Sleep | HotPathRules.RunLoopPaces)) != 0 && !insideFunction && IsRunLoop(loop))
                    {
                        return null;
                    }

                    // Inside a loop that turns once per period (paced by its own periodic wait): once per period, pacing.
                    if (!insideFunction && !sleep && IsPacedRunLoop(loop, symbols, settings.PollingThresholdMilliseconds))
                    {
                        return null;
                    }

                    // A timeout per item of an async stream runs per message however rarely the member runs (once per
                    // connection or subscription): its callers do not decide, as they do for other loops.
                    if ((rules & HotPathRules.Loop) != 0 && !sleep && !insideLambda && loop is IForEachLoopOperation { IsAsynchronous: true })
                    {
                        return PerStreamItem;
                    }

                    if ((rules & HotPathRules.Loop) != 0 && !paced && !(sleep && Catches(loop.Body)))
                    {
                        return CalledOnlyFromColdCode(containingSymbol, symbols, insideLambda, settings.PollingThresholdMilliseconds, cancellationToken) ? null :
                            !sleep ? InsideLoop : perRequest ? PerRequestPollingDelay : ShortPollingDelay;
                    }

                    break;
                case IAnonymousFunctionOperation function:
                    insideFunction = true;

                    // The callback of a periodic timer runs once per period: pacing, as the body of a paced loop.
                    if (symbols.Callers.IsPeriodicTimerCallback(function))
                    {
                        return null;
                    }

                    if ((rules & HotPathRules.PerItemDelegate) != 0 && IsPerItemBody(function, symbols))
                    {
                        // The per-item body runs inside the call that takes it, so the member's callers still decide.
                        return CalledOnlyFromColdCode(containingSymbol, symbols, insideLambda, settings.PollingThresholdMilliseconds, cancellationToken) ? null : PerItemDelegate;
                    }

                    insideLambda = true;

                    break;
                case ILocalFunctionOperation localFunction:
                    insideFunction = true;

                    // Given to a periodic timer as its callback, by name: once per period, as such a lambda is.
                    if (symbols.Callers.IsPeriodicTimerCallback(localFunction))
                    {
                        return null;
                    }

                    if ((rules & HotPathRules.Loop) != 0 && !sleep && !insideLambda && IsCalledPerStreamItem(localFunction))
                    {
                        return PerStreamItem;
                    }

                    break;
            }
        }

        // A sleep in a MediatR handler (outside its loops, which rule 1 reads) runs once per request or notification the
        // mediator sends. Not a controller's or hub's: in the corpus their sleeps outside loops are admin, developer and
        // failure-path pauses (a regtest cheat action, a restart command, a retry after a 429), not per-request work.
        if (sleep && (rules & HotPathRules.Loop) != 0 && !inLoop && !insideFunction && !neverFires && IsMediatRHandler(containingSymbol.ContainingType) &&
            !CalledOnlyFromColdCode(containingSymbol, symbols, insideLambda, settings.PollingThresholdMilliseconds, cancellationToken))
        {
            return PerRequestSleep;
        }

        // A short sleep in a member that every caller calls in the body of its loop is that loop's polling delay.
        if (sleep && shortDelay && (rules & HotPathRules.Loop) != 0 && !insideFunction && containingSymbol is IMethodSymbol member &&
            symbols.Callers.IsCalledInLoops(member, settings.PollingThresholdMilliseconds, cancellationToken))
        {
            return ShortPollingDelayInCallersLoop;
        }

        // A member that runs once does what is outside its loops once; its loops (a request loop in Main, a consume loop
        // in ExecuteAsync) turn per operation.
        if ((rules & HotPathRules.PerOperationTimeout) != 0 && settings.PerOperationTimeouts && !(RunsOnce(containingSymbol, symbols, insideFunction) && !inLoop) &&
            !CalledOnlyFromColdCode(containingSymbol, symbols, insideLambda, settings.PollingThresholdMilliseconds, cancellationToken))
        {
            return perOperationReason ?? PerOperationTimeout;
        }

        return null;
    }

    /// <summary>
    /// The member calls <paramref name="localFunction"/> in the body of an <c>await foreach</c> (not through a lambda):
    /// what the local function does, it does per item of the stream (<c>ArmIdleTimer()</c> re-arming a source per
    /// message). Only the member's own body is read, where every call of a local function is.
    /// </summary>
    private static bool IsCalledPerStreamItem(ILocalFunctionOperation localFunction)
    {
        foreach (var node in localFunction.Root().Descendants())
        {
            if (node is IInvocationOperation invocation &&
                SymbolEqualityComparer.Default.Equals(invocation.TargetMethod.OriginalDefinition, localFunction.Symbol.OriginalDefinition) &&
                InStreamLoopBody(invocation))
            {
                return true;
            }
        }

        return false;
    }

    // The operation is in the body of an await foreach of its member, not through a lambda.
    private static bool InStreamLoopBody(IOperation operation)
    {
        for (IOperation? child = operation, parent = operation.Parent; parent is not null; child = parent, parent = parent.Parent)
        {
            switch (parent)
            {
                case IForEachLoopOperation { IsAsynchronous: true } loop when ReferenceEquals(loop.Body, child):
                    return true;
                case IAnonymousFunctionOperation:
                    return false;
            }
        }

        return false;
    }

    /// <summary>
    /// Every caller of the member, within the compilation, is cold (<see cref="ColdCallers"/>), so the member runs only
    /// when they do. Not asked for code in a lambda, which may run later, per operation, wherever it was created.
    /// </summary>
    private static bool CalledOnlyFromColdCode(ISymbol containingSymbol, KnownSymbols symbols, bool insideLambda, long pollingThresholdMilliseconds, CancellationToken cancellationToken) =>
        !insideLambda && containingSymbol is IMethodSymbol method && symbols.Callers.Reason(method, pollingThresholdMilliseconds, cancellationToken) is not null;

    /// <summary>
    /// <see cref="CalledOnlyFromColdCode(ISymbol, KnownSymbols, bool, long, CancellationToken)"/> for a site a rule asks about
    /// on its own (CT0004's long waits): not for one inside a lambda, which may run later, per operation. A local
    /// function runs when its member calls it, so its member's callers decide, as for the other rules.
    /// </summary>
    internal static bool CalledOnlyFromColdCode(IOperation operation, ISymbol containingSymbol, KnownSymbols symbols, long pollingThresholdMilliseconds, CancellationToken cancellationToken)
    {
        for (var parent = operation.Parent; parent is not null; parent = parent.Parent)
        {
            if (parent is IAnonymousFunctionOperation)
            {
                return false;
            }
        }

        return CalledOnlyFromColdCode(containingSymbol, symbols, insideLambda: false, pollingThresholdMilliseconds, cancellationToken);
    }

    /// <summary>
    /// A loop that runs for the life of its owner: <c>while (true)</c>, <c>for (;;)</c>, a condition that reads
    /// <c>IsCancellationRequested</c> or a flag of the owner's state (<c>!IsDisposed</c>, <c>!_stopped</c>,
    /// <c>IsRunning</c>), or awaits a periodic timer's tick (<see cref="IsTickWait"/>). What waits directly in it paces it.
    /// </summary>
    private static bool IsRunLoop(ILoopOperation loop)
    {
        var condition = loop switch
        {
            IWhileLoopOperation w => w.Condition,
            IForLoopOperation f => f.Condition,
            _ => null,
        };
        if (loop is not (IWhileLoopOperation or IForLoopOperation))
        {
            return false;
        }

        // `for (;;)` and `while (true)` run for the owner's life; `for (var attempt = 0; ; attempt++)` counts the tries
        // of one call (a retry loop that leaves by break or return), so it is not one.
        if (condition is null || condition.ConstantValue is { HasValue: true, Value: true })
        {
            return loop is not IForLoopOperation { Before.Length: > 0 } && loop is not IForLoopOperation { AtLoopBottom.Length: > 0 };
        }

        foreach (var node in condition.DescendantsAndSelf())
        {
            if (node is IPropertyReferenceOperation { Property.Name: "IsCancellationRequested" } ||
                IsTickWait(node) ||
                node is IPropertyReferenceOperation { Property.Name: var property } && NamesOwnerState(property) ||
                node is IFieldReferenceOperation { Field.Name: var field } && NamesOwnerState(field))
            {
                return true;
            }
        }

        return false;
    }

    /// <summary>
    /// A flag that says whether the loop's owner still lives: a word of its name is one of <see cref="s_ownerStateWords"/>
    /// (<c>IsDisposed</c>, <c>_stopped</c>, <c>IsRunning</c>, <c>_shutdownRequested</c>).
    /// </summary>
    private static bool NamesOwnerState(string name)
    {
        foreach (var word in ColdContext.Words(name))
        {
            if (s_ownerStateWords.Contains(word))
            {
                return true;
            }
        }

        return false;
    }

    /// <summary>
    /// A wait for a periodic timer's next tick: <c>PeriodicTimer.WaitForNextTickAsync()</c>, or an awaited timer
    /// (<c>while (await timer)</c>, SignalR's <c>TimerAwaitable</c>: an awaitable whose type's name has the word Timer).
    /// </summary>
    private static bool IsTickWait(IOperation node) =>
        node is IInvocationOperation { TargetMethod.Name: "WaitForNextTickAsync" } ||
        node is IAwaitOperation { Operation.Type.Name: var awaited } && ColdContext.Words(awaited).Contains("Timer");

    /// <summary>
    /// A run loop (<see cref="IsRunLoop"/>) paced by a periodic wait: its condition awaits a tick (<see cref="IsTickWait"/>), or
    /// its body awaits, on every iteration (not under a condition, not in a catch), a <c>Task.Delay</c> or
    /// <c>WaitForNextTickAsync</c> that is not short polling (a constant below <paramref name="pollingThresholdMilliseconds"/>).
    /// Such a loop turns once per period for the life of its owner: what it does, it does once per period.
    /// </summary>
    internal static bool IsPacedRunLoop(ILoopOperation loop, KnownSymbols symbols, long pollingThresholdMilliseconds)
    {
        if (!IsRunLoop(loop))
        {
            return false;
        }

        var condition = loop switch
        {
            IWhileLoopOperation w => w.Condition,
            IForLoopOperation f => f.Condition,
            _ => null,
        };
        if (condition is not null)
        {
            foreach (var node in condition.DescendantsAndSelf())
            {
                if (IsTickWait(node))
                {
                    return true;
                }
            }
        }

        return WaitsOnEveryRun(loop.Body, symbols, pollingThresholdMilliseconds);
    }

    // Every run of body awaits a periodic wait.
    private static bool WaitsOnEveryRun(IOperation body, KnownSymbols symbols, long pollingThresholdMilliseconds)
    {
        foreach (var node in body.DescendantsAndSelf())
        {
            if (IsUnconditionalPeriodicWait(node, body, symbols, pollingThresholdMilliseconds))
            {
                return true;
            }
        }

        return false;
    }

    // A periodic wait that every run of body awaits (IsUnconditional).
    private static bool IsUnconditionalPeriodicWait(IOperation node, IOperation body, KnownSymbols symbols, long pollingThresholdMilliseconds) =>
        node is IInvocationOperation or IInvalidOperation && IsPeriodicWait(node, symbols, pollingThresholdMilliseconds) &&
        (IsUnconditional(node, body, symbols, pollingThresholdMilliseconds) || IsAwaitedThroughLocal(node, body, symbols, pollingThresholdMilliseconds));

    /// <summary>
    /// <c>var delay = Task.Delay(period, ct); ...; await delay;</c>: the wait is created on every run of
    /// <paramref name="body"/> and a read of its local is awaited on every run.
    /// </summary>
    private static bool IsAwaitedThroughLocal(IOperation wait, IOperation body, KnownSymbols symbols, long pollingThresholdMilliseconds)
    {
        if (Storage.Of(wait) is not ILocalSymbol local || !IsUnconditional(wait, body, symbols, pollingThresholdMilliseconds, requireAwait: false))
        {
            return false;
        }

        foreach (var node in body.Descendants())
        {
            if (node is ILocalReferenceOperation reference && SymbolEqualityComparer.Default.Equals(reference.Local, local) &&
                IsUnconditional(reference, body, symbols, pollingThresholdMilliseconds))
            {
                return true;
            }
        }

        return false;
    }

    private static bool IsPeriodicWait(IOperation call, KnownSymbols symbols, long pollingThresholdMilliseconds)
    {
        IOperation? delay;
        switch (call)
        {
            case IInvocationOperation { TargetMethod.Name: "WaitForNextTickAsync" }:
                return true;
            case IInvocationOperation invocation when invocation.TargetMethod.IsMethodOf(symbols.Task, "Delay"):
                delay = invocation.Arguments.ArgumentFor(0);
                break;
            case IInvalidOperation unresolved when UnresolvedCall.Calls(unresolved, symbols.Task, "Delay"):
                delay = UnresolvedCall.Argument(unresolved, 0);
                break;
            default:
                return false;
        }

        return !TimerLifetime.IsInfinite(delay, symbols) &&
               !(TimeoutConstants.Milliseconds(delay, symbols) is double ms && ms < pollingThresholdMilliseconds);
    }

    /// <summary>
    /// Every run of <paramref name="body"/> awaits <paramref name="wait"/> (or, without <paramref name="requireAwait"/>,
    /// reaches it): only blocks, statements, awaits, try and using bodies lie between, or an if/else or <c>?:</c> whose
    /// other branch also waits on every run.
    /// </summary>
    private static bool IsUnconditional(IOperation wait, IOperation body, KnownSymbols symbols, long pollingThresholdMilliseconds, bool requireAwait = true)
    {
        var awaited = !requireAwait;
        for (IOperation? child = wait, parent = wait.Parent; parent is not null; child = parent, parent = parent.Parent)
        {
            switch (parent)
            {
                case IAwaitOperation:
                    awaited = true;
                    break;
                case IInvocationOperation { TargetMethod.Name: "ConfigureAwait" } configure when ReferenceEquals(configure.Instance, child):
                case IConversionOperation or IExpressionStatementOperation or IVariableInitializerOperation or IVariableDeclaratorOperation or
                    IVariableDeclarationOperation or IVariableDeclarationGroupOperation or IUsingOperation or IUsingDeclarationOperation:
                    break;
                case ITryOperation tryOperation when ReferenceEquals(tryOperation.Body, child) || ReferenceEquals(tryOperation.Finally, child):
                    // The body, or the finally, which runs on every iteration too.
                    break;
                case IConditionalOperation { Type: null, WhenFalse: { } whenFalse } branches when
                    (ReferenceEquals(branches.WhenTrue, child) ? whenFalse : branches.WhenTrue) is var other &&
                    WaitsOnEveryRun(other, symbols, pollingThresholdMilliseconds):
                    // An if/else whose other branch waits as well: every run waits, whichever branch it takes.
                    break;
                case IConditionalOperation { Type: not null, WhenFalse: { } whenFalse } choice when
                    (ReferenceEquals(choice.WhenTrue, child) ? whenFalse : choice.WhenTrue).WithoutConversions() is { } other &&
                    other is IInvocationOperation or IInvalidOperation && IsPeriodicWait(other, symbols, pollingThresholdMilliseconds):
                    // `await (slow ? Task.Delay(a, ct) : Task.Delay(b, ct))`: either way, a periodic wait is awaited.
                    break;
                case IBlockOperation when ReferenceEquals(parent, body):
                    return awaited;
                case IBlockOperation:
                    break;
                default:
                    return false;
            }

            if (ReferenceEquals(parent, body))
            {
                return awaited;
            }
        }

        return false;
    }

    /// <summary>The loop body catches an exception: the loop retries, and a delay in it is backoff.</summary>
    private static bool Catches(IOperation body)
    {
        foreach (var node in body.Descendants())
        {
            if (node is ITryOperation { Catches.Length: > 0 })
            {
                return true;
            }
        }

        return false;
    }

    /// <summary>The entry point and static constructors run once; lambdas and local functions inside them need not.</summary>
    private static bool RunsOnce(ISymbol containingSymbol, KnownSymbols symbols, bool insideFunction) =>
        !insideFunction && containingSymbol is IMethodSymbol method && symbols.RunsOnce(method);

    private static bool IsPerItemBody(IAnonymousFunctionOperation function, KnownSymbols symbols)
    {
        if (function.ConsumerSkippingDelegateCreation() is not IArgumentOperation { Parameter: { } parameter, Parent: IInvocationOperation invocation } ||
            !s_perItemParameters.Contains(parameter.Name))
        {
            return false;
        }

        var method = invocation.TargetMethod;
        var type = method.ContainingType?.OriginalDefinition;
        return (SymbolEqualityComparer.Default.Equals(type, symbols.Parallel) && method.Name is "For" or "ForEach" or "ForEachAsync") ||
               (SymbolEqualityComparer.Default.Equals(type, symbols.List) && method.Name == "ForEach") ||
               (SymbolEqualityComparer.Default.Equals(type, symbols.Enumerable) && method.Name is "Select" or "SelectMany");
    }

    private static bool IsDeclaredHot(IOperation operation, ISymbol containingSymbol, AnalyzerSettings settings)
    {
        for (var parent = operation.Parent; parent is not null; parent = parent.Parent)
        {
            // A local function or a lambda that carries the mark itself (`[HotPath] async () => ...`, C# 10).
            if ((parent is ILocalFunctionOperation localFunction && HasHotPathAttribute(localFunction.Symbol, settings)) ||
                (parent is IAnonymousFunctionOperation lambda && HasHotPathAttribute(lambda.Symbol, settings)))
            {
                return true;
            }
        }

        for (var symbol = containingSymbol; symbol is not null and not INamespaceSymbol; symbol = symbol.ContainingSymbol)
        {
            if (HasHotPathAttribute(symbol, settings))
            {
                return true;
            }

            // An accessor inherits the mark of its property or event.
            if (symbol is IMethodSymbol { AssociatedSymbol: { } associated } && HasHotPathAttribute(associated, settings))
            {
                return true;
            }
        }

        return false;
    }

    private static bool HasHotPathAttribute(ISymbol symbol, AnalyzerSettings settings)
    {
        foreach (var attribute in symbol.GetAttributes())
        {
            var type = attribute.AttributeClass;
            if (type is null)
            {
                continue;
            }

            if (type.Name is "HotPathAttribute" or "HotPath")
            {
                return true;
            }

            foreach (var configured in settings.HotPathAttributes)
            {
                if (Matches(type, configured))
                {
                    return true;
                }
            }
        }

        return false;
    }

    private static bool Matches(INamedTypeSymbol type, string configured)
    {
        var name = configured.StartsWith("global::", StringComparison.Ordinal) ? configured.Substring(8) : configured;
        var full = type.ToDisplayString();
        return string.Equals(type.Name, name, StringComparison.Ordinal) ||
               string.Equals(type.Name, name + "Attribute", StringComparison.Ordinal) ||
               string.Equals(full, name, StringComparison.Ordinal) ||
               string.Equals(full, name + "Attribute", StringComparison.Ordinal);
    }

    /// <summary>
    /// The type derives from ASP.NET Core's <c>ControllerBase</c> (MVC and API controllers) or SignalR's <c>Hub</c>: the
    /// framework creates one per request or hub method call, so everything it does, it does per request. By name and
    /// namespace; a base type the compilation cannot resolve counts when it is named <c>ControllerBase</c> or
    /// <c>Controller</c>.
    /// </summary>
    internal static bool IsPerRequestType(INamedTypeSymbol? type)
    {
        for (var current = type?.BaseType; current is not null; current = current.BaseType)
        {
            switch (current.Name)
            {
                case "ControllerBase" when InAspNetCore(current.ContainingNamespace, "Mvc"):
                case "Hub" when InAspNetCore(current.ContainingNamespace, "SignalR"):
                case "ControllerBase" or "Controller" when current.TypeKind == TypeKind.Error:
                    return true;
            }
        }

        return false;
    }

    /// <summary>
    /// A MediatR handler: a type that implements <c>IRequestHandler&lt;TRequest&gt;</c>,
    /// <c>IRequestHandler&lt;TRequest, TResponse&gt;</c> or <c>INotificationHandler&lt;TNotification&gt;</c> of the
    /// <c>MediatR</c> namespace (by name when unresolved), whose <c>Handle</c> the mediator calls once per request or
    /// notification it sends.
    /// </summary>
    internal static bool IsMediatRHandler(INamedTypeSymbol? type)
    {
        if (type is null)
        {
            return false;
        }

        foreach (var contract in type.AllInterfaces)
        {
            if (IsHandlerContract(contract))
            {
                return true;
            }
        }

        // With MediatR unresolved, the compiler cannot tell an interface first in the base list from a base class.
        for (var current = type.BaseType; current is not null; current = current.BaseType)
        {
            if (current.TypeKind == TypeKind.Error && IsHandlerContract(current))
            {
                return true;
            }
        }

        return false;

        static bool IsHandlerContract(INamedTypeSymbol contract) =>
            contract is { Name: "IRequestHandler" or "INotificationHandler" } &&
            (contract.ContainingNamespace is { Name: "MediatR", ContainingNamespace.IsGlobalNamespace: true } || contract.TypeKind == TypeKind.Error);
    }

    // `Microsoft.AspNetCore.<name>`, read without building the namespace's display string.
    private static bool InAspNetCore(INamespaceSymbol? ns, string name) =>
        ns?.Name == name && ns.ContainingNamespace is { Name: "AspNetCore" } aspNetCore &&
        aspNetCore.ContainingNamespace is { Name: "Microsoft", ContainingNamespace.IsGlobalNamespace: true };
}
