using System;
using System.Threading;
using CoarseTimers.Analyzers.Internals;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CSharp;
using Microsoft.CodeAnalysis.CSharp.Syntax;
using Microsoft.CodeAnalysis.Operations;

namespace CoarseTimers.Analyzers.Shared;

/// <summary>
/// Whether a timer is created per operation and usually does not fire: the lifetime evidence behind hot-path rule 3
/// (docs/hot-paths.md). Each answer is the words the diagnostic message shows, or null. Only the member that holds the
/// site is read (its own body), so the cost is one walk of that body at most.
/// </summary>
internal static class TimerLifetime
{
    public const string LocalTimeout = "per-operation timeout";
    public const string FactoryTimeout = "timeout created by a factory method, per call";
    public const string InstanceTimeout = "timeout held by its object, one per instance";
    public const string RearmedSource = "reused source re-armed per call";
    public const string TimeoutTimer = "timeout timer disposed by the code that created it";
    public const string TaskTimeoutTimer = "timeout timer that fails a pending task";

    /// <summary>A timer held by an object that <paramref name="creator"/> creates per operation (<see cref="PerOperationObject"/>).</summary>
    public static string HeldByPerOperationObject(string creator) => $"held by an object created per call of {creator}";

    /// <summary>
    /// A <c>new CancellationTokenSource(timeout)</c>: held in a local, returned by its method (a factory such as
    /// <c>CreateTimeoutCts()</c>, also inside a wrapper it returns), or held in an instance field or property of its object;
    /// also when it is one branch of a <c>?:</c> or <c>??</c> whose value goes there (<c>using var cts = timeout.HasValue
    /// ? new CancellationTokenSource(timeout.Value) : new CancellationTokenSource()</c>).
    /// </summary>
    public static string? OfSource(IOperation creation)
    {
        var value = SelectedBy(creation);
        switch (Storage.Of(value))
        {
            case ILocalSymbol local:
                return ReturnsLocal(value, local) ? FactoryTimeout : LocalTimeout;
            case IFieldSymbol { IsStatic: false }:
            case IPropertySymbol { IsStatic: false }:
                return InstanceTimeout;
            case null when IsReturned(value) || TokenReturned(value):
                return FactoryTimeout;
            case null when TokenPassedToCall(value) || TokenKeptInLocal(value) || Storage.ByValueParameterOf(value) is not null:
                // A by-value parameter the method assigns (`source ??= new CancellationTokenSource(t)`) holds it as a local would.
                return LocalTimeout;
            default:
                return null;
        }
    }

    /// <summary>
    /// The outermost <c>?:</c>, <c>??</c> or switch expression that <paramref name="value"/> is a branch of (through conversions), or the value
    /// itself: where a source chosen by a condition goes is where the source goes.
    /// </summary>
    internal static IOperation SelectedBy(IOperation value)
    {
        var child = value;
        for (var parent = value.Parent; parent is not null; parent = parent.Parent)
        {
            switch (parent)
            {
                case IConversionOperation:
                    break;
                case IConditionalOperation conditional when ReferenceEquals(conditional.WhenTrue, child) || ReferenceEquals(conditional.WhenFalse, child):
                case ICoalesceOperation coalesce when ReferenceEquals(coalesce.WhenNull, child) || ReferenceEquals(coalesce.Value, child):
                case ISwitchExpressionOperation when child is ISwitchExpressionArmOperation:
                    value = parent;
                    break;
                case ISwitchExpressionArmOperation arm when ReferenceEquals(arm.Value, child):
                    break;
                default:
                    return value;
            }

            child = parent;
        }

        return value;
    }

    /// <summary>
    /// <c>Run(work, new CancellationTokenSource(timeout).Token)</c>: the source's token is an argument of a method call,
    /// so the source bounds that call and is dropped after it, one per call. Not an argument of a constructor
    /// (<c>new CancellationChangeToken(new CancellationTokenSource(period).Token)</c> keeps it for its object's life, a
    /// change signal that fires).
    /// </summary>
    private static bool TokenPassedToCall(IOperation creation) =>
        creation.Parent is IPropertyReferenceOperation { Property.Name: "Token" } token &&
        token.ConsumerSkippingConversions() is IArgumentOperation { Parent: IInvocationOperation };

    /// <summary>
    /// <c>CancellationToken Timeout() =&gt; new CancellationTokenSource(timeout).Token;</c>: a factory of timeout tokens, one
    /// source per call, as a factory that returns the source is. The token itself, not wrapped: a change token built
    /// around it (<c>new CancellationChangeToken(...)</c>) signals a change and fires.
    /// The analyzer and the code fix ask this alike.
    /// </summary>
    internal static bool TokenReturned(IOperation creation) =>
        creation.Parent is IPropertyReferenceOperation { Property.Name: "Token" } token && IsReturned(token, throughWrappers: false);

    /// <summary>
    /// <c>cancellationToken = new CancellationTokenSource(timeout).Token</c>: the source is dropped and only its token is
    /// kept, in a local or a by-value parameter of the running method, so the source bounds this call's work: one per call.
    /// </summary>
    private static bool TokenKeptInLocal(IOperation creation) =>
        creation.Parent is IPropertyReferenceOperation { Property.Name: "Token" } token && KeptTokenVariable(token) is not null;

    /// <summary>
    /// The local or by-value parameter that <paramref name="tokenRead"/> (a source's <c>.Token</c>) is stored in
    /// (<c>var token = ...Token;</c>, <c>cancellationToken = ...Token;</c>), or null. Not a ref local or an out/ref
    /// parameter: the caller's variable would keep the token past this call. The analyzer and the code fix ask this alike.
    /// </summary>
    internal static ISymbol? KeptTokenVariable(IOperation tokenRead) => tokenRead.ConsumerSkippingConversions() switch
    {
        IVariableInitializerOperation { Parent: IVariableDeclaratorOperation { Symbol.RefKind: RefKind.None } declarator } => declarator.Symbol,
        ISimpleAssignmentOperation { Target: ILocalReferenceOperation { Local.RefKind: RefKind.None } local } assignment when !ReferenceEquals(assignment.Target, tokenRead) => local.Local,
        ISimpleAssignmentOperation { Target: IParameterReferenceOperation { Parameter.RefKind: RefKind.None } parameter } assignment when !ReferenceEquals(assignment.Target, tokenRead) => parameter.Parameter,
        _ => null,
    };

    /// <summary>
    /// <c>source.CancelAfter(timeout)</c>: on a local source, a per-operation timeout; on a field, property, parameter or
    /// <c>this</c>, a reused (pooled or long-lived) source re-armed every time the method runs.
    /// </summary>
    public static string? OfCancelAfter(IInvocationOperation invocation) => OfCancelAfterOn(invocation.Instance);

    /// <summary>
    /// <see cref="OfCancelAfter"/> for the source <paramref name="instance"/> (null: an implicit <c>this</c>; the receiver
    /// of a null-conditional <c>source?.CancelAfter(t)</c>, as of the plain call).
    /// </summary>
    public static string? OfCancelAfterOn(IOperation? instance) => instance.ThroughConditionalAccess() switch
    {
        ILocalReferenceOperation armed => ReturnsLocal(armed, armed.Local) ? FactoryTimeout : LocalTimeout,
        IFieldReferenceOperation { Field.IsStatic: false } or IPropertyReferenceOperation { Property.IsStatic: false } or
            IParameterReferenceOperation or IInstanceReferenceOperation => RearmedSource,
        null => RearmedSource,
        _ => null,
    };

    /// <summary>
    /// A <c>new Timer(...)</c> used as a timeout: held in a local that the creating code disposes (outside the timer's
    /// own callback: a timer that disposes itself in its callback is expected to fire), the resource of a <c>using</c>
    /// around the work it watches, or returned by a factory method; unless its period is a positive constant (a
    /// ticker). A factory that passes its caller's period through counts: requiring a provably one-shot period there
    /// was tried and lost three per-call deadline factories of the corpus for one periodic one (docs/signal-quality.md).
    /// </summary>
    public static string? OfTimer(IOperation creation, TimerPeriod period)
    {
        if (period == TimerPeriod.Repeats)
        {
            return null;
        }

        if (FailsPendingTask(creation))
        {
            return TaskTimeoutTimer;
        }

        var storage = Storage.Of(creation);
        if (storage is ILocalSymbol local)
        {
            return IsDisposedByCreator(creation, local) ? TimeoutTimer : null;
        }

        if (storage is IFieldSymbol { IsStatic: false } or IPropertySymbol { IsStatic: false } && period == TimerPeriod.OneShot &&
            !IsRearmed(creation, storage.Name))
        {
            // One one-shot timer per instance, armed once (a request's response timeout, a batch's time limit): the
            // timer counterpart of a timeout source held by its object.
            return InstanceTimeout;
        }

        if (creation.ConsumerSkippingConversions() is IUsingOperation)
        {
            // `using (new Timer(...)) { work }`: a watchdog around the work, disposed when it ends.
            return TimeoutTimer;
        }

        return IsReturned(creation) ? FactoryTimeout : null;
    }

    /// <summary>The callback of a <c>new Timer(...)</c> (bound, or unresolved by a missing type) when it is a lambda, else null.</summary>
    internal static IAnonymousFunctionOperation? CallbackLambda(IOperation creation)
    {
        var callback = creation switch
        {
            IObjectCreationOperation bound => bound.Arguments.ArgumentFor(0),
            IInvalidOperation unresolved => UnresolvedCall.Argument(unresolved, 0),
            _ => null,
        };
        if (callback.WithoutConversions() is IDelegateCreationOperation { Target: var target })
        {
            callback = target;
        }

        return callback as IAnonymousFunctionOperation;
    }

    /// <summary>
    /// The timer's callback is a lambda that fails a <c>TaskCompletionSource</c> (<c>TrySetException</c>,
    /// <c>SetException</c>, <c>TrySetCanceled</c>, <c>SetCanceled</c>): it times out an operation someone awaits (an
    /// acknowledgement per published message, a reply per request), one timer per operation, however the timer is
    /// disposed (in its own callback, or by a continuation that receives it in a tuple). Lifecycle names still make it
    /// cold (a connect's timeout). Lambdas only: a method group's body is not read.
    /// </summary>
    private static bool FailsPendingTask(IOperation creation)
    {
        if (CallbackLambda(creation) is not { } lambda)
        {
            return false;
        }

        foreach (var node in lambda.Body.Descendants())
        {
            switch (node)
            {
                case IInvocationOperation { TargetMethod: { Name: var name } method } when IsTaskFailure(name) && method.ContainingType?.Name == "TaskCompletionSource":
                // An exception of a type from a missing reference leaves TrySetException unbound between its overloads.
                case IInvalidOperation { Syntax: InvocationExpressionSyntax { Expression: MemberAccessExpressionSyntax { Name.Identifier.ValueText: var unboundName } } } unbound
                    when IsTaskFailure(unboundName) && UnresolvedCall.Receiver(unbound)?.Type?.Name == "TaskCompletionSource":
                    return true;
            }
        }

        return false;
    }

    private static bool IsTaskFailure(string name) => name is "TrySetException" or "SetException" or "TrySetCanceled" or "SetCanceled";

    /// <summary>
    /// A timer factory (<see cref="FactoryTimeout"/>) that passes its caller's period through, and whose every caller in
    /// the compilation passes a period that repeats: a positive constant, or the same expression as the due time (the
    /// ticker idiom <c>Create(Tick, null, interval, interval)</c>). It makes tickers, not timeouts.
    /// </summary>
    public static bool CallersPassAPeriod(IMethodSymbol factory, IOperation? dueTime, IOperation? period, KnownSymbols symbols, CancellationToken cancellationToken)
    {
        if (period.WithoutConversions() is not IParameterReferenceOperation { Parameter: var periodParameter } ||
            !SymbolEqualityComparer.Default.Equals(periodParameter.ContainingSymbol, factory))
        {
            return false;
        }

        var dueParameter = (dueTime.WithoutConversions() as IParameterReferenceOperation)?.Parameter;
        var calls = symbols.Callers.Calls(factory, cancellationToken);
        if (calls.IsDefaultOrEmpty)
        {
            return false;
        }

        foreach (var call in calls)
        {
            var arguments = call.CallArguments();
            var periodArgument = arguments.ArgumentFor(periodParameter.Ordinal);
            var dueArgument = dueParameter is null ? null : arguments.ArgumentFor(dueParameter.Ordinal);
            if (PeriodOf(periodArgument, dueArgument, symbols) != TimerPeriod.Repeats)
            {
                return false;
            }
        }

        return true;
    }

    /// <summary>
    /// <see cref="PeriodOf(IOperation, KnownSymbols)"/> for the arguments a caller passes to a timer factory, where a
    /// period that is the same expression as the due time (<c>Create(Tick, null, interval, interval)</c>, the ticker idiom)
    /// also repeats. Not for a timer created in place: <c>using (new Timer(Warn, null, threshold, threshold))</c> is a
    /// watchdog that repeats while a call runs and usually never fires.
    /// </summary>
    private static TimerPeriod PeriodOf(IOperation? period, IOperation? dueTime, KnownSymbols symbols)
    {
        var known = PeriodOf(period, symbols);
        return known == TimerPeriod.Unknown && period is not null && dueTime is not null &&
               SyntaxFactory.AreEquivalent(period.WithoutConversions()!.Syntax, dueTime.WithoutConversions()!.Syntax)
            ? TimerPeriod.Repeats
            : known;
    }

    /// <summary>
    /// What the <c>period</c> argument of <c>new Timer(...)</c> says: absent (the callback-only constructor), infinite
    /// or 0 disable repetition (as the BCL documents: <see cref="TimerPeriod.OneShot"/>); a positive constant repeats;
    /// anything else is not known here.
    /// </summary>
    public static TimerPeriod PeriodOf(IOperation? period, KnownSymbols symbols)
    {
        if (period is null || IsInfinite(period, symbols))
        {
            return TimerPeriod.OneShot;
        }

        return TimeoutConstants.Milliseconds(period, symbols) switch
        {
            0 => TimerPeriod.OneShot,
            > 0 => TimerPeriod.Repeats,
            _ => TimerPeriod.Unknown,
        };
    }

    /// <summary>
    /// The argument means "never": <c>-1</c> ms (<c>Timeout.Infinite</c>), <c>Timeout.InfiniteTimeSpan</c> or
    /// <c>TimeSpan.FromMilliseconds(-1)</c>. Such a delay, timeout or due time queues no timer and is never flagged.
    /// </summary>
    public static bool IsInfinite(IOperation? argument, KnownSymbols symbols) =>
        argument.WithoutConversions() is IFieldReferenceOperation { Field.Name: "InfiniteTimeSpan" } ||
        TimeoutConstants.Milliseconds(argument, symbols) is double ms && ms == -1;

    /// <summary>
    /// <see cref="IsInfinite"/>, or a local that only its declaration writes, with an infinite value, or a by-value
    /// parameter of its method that the method never assigns and that every call
    /// in the compilation passes an infinite value for (<c>WaitAsync(TimeSpan timeout)</c> racing <c>Task.Delay(timeout)</c>,
    /// whose every caller waits with <c>Timeout.InfiniteTimeSpan</c>): no call of it queues a timer. Callers are
    /// listed as for cold callers (<see cref="ColdCallers.Calls"/>): all must be seen.
    /// </summary>
    public static bool IsInfiniteAtEveryCall(IOperation? argument, KnownSymbols symbols, CancellationToken cancellationToken)
    {
        if (IsInfinite(argument, symbols))
        {
            return true;
        }

        if (argument.WithoutConversions() is ILocalReferenceOperation { Local: { RefKind: RefKind.None } local })
        {
            // `var forever = Timeout.InfiniteTimeSpan; ... Task.Delay(forever)`: a local that only its declaration writes.
            var root = argument!.Root();
            return InitializerOf(local, root) is { } initializer && IsInfinite(initializer, symbols) && !IsAssigned(local, root);
        }

        if (argument.WithoutConversions() is not IParameterReferenceOperation { Parameter: { RefKind: RefKind.None, ContainingSymbol: IMethodSymbol method } parameter } ||
            IsAssigned(parameter, argument!.Root()))
        {
            return false;
        }

        var calls = symbols.Callers.Calls(method, cancellationToken);
        if (calls.IsDefaultOrEmpty)
        {
            return false;
        }

        foreach (var call in calls)
        {
            if (!IsInfinite(call.CallArguments().ArgumentFor(parameter.Ordinal), symbols))
            {
                return false;
            }
        }

        return true;
    }

    // The method writes the parameter or local somewhere: an assignment, an increment, or a ref or out argument.
    private static bool IsAssigned(ISymbol variable, IOperation root)
    {
        foreach (var node in root.Descendants())
        {
            var referenced = node switch
            {
                IParameterReferenceOperation parameter => (ISymbol)parameter.Parameter,
                ILocalReferenceOperation local => local.Local,
                _ => null,
            };
            if (referenced is null || !SymbolEqualityComparer.Default.Equals(referenced, variable))
            {
                continue;
            }

            var reference = node;
            switch (reference.Parent)
            {
                case IAssignmentOperation assignment when ReferenceEquals(assignment.Target, reference):
                case IIncrementOrDecrementOperation:
                case IArgumentOperation { Parameter.RefKind: RefKind.Ref or RefKind.Out }:
                    return true;
            }
        }

        return false;
    }

    // The value a local's declaration gives it, or null (declared without one, or elsewhere: a pattern, an out variable).
    private static IOperation? InitializerOf(ILocalSymbol local, IOperation root)
    {
        foreach (var node in root.Descendants())
        {
            if (node is IVariableDeclaratorOperation declarator && SymbolEqualityComparer.Default.Equals(declarator.Symbol, local))
            {
                return declarator.Initializer?.Value;
            }
        }

        return null;
    }

    /// <summary>
    /// The value leaves its method by <c>return</c> (or an expression body), directly or wrapped in a new object (also
    /// one whose type the compilation cannot resolve: an invalid creation still returns what it wraps).
    /// </summary>
    /// <summary>
    /// The member that holds <paramref name="site"/> returns <paramref name="local"/> itself (<c>var cts =
    /// CreateLinkedTokenSource(ct); cts.CancelAfter(t); return cts;</c>): a timeout factory, so the message says so (its
    /// callers may cancel, re-arm or hand on what it returns, which is why the code fix leaves it to be rewritten by hand).
    /// </summary>
    private static bool ReturnsLocal(IOperation site, ILocalSymbol local)
    {
        var root = site.Root();
        foreach (var node in root.Descendants())
        {
            if (node is IReturnOperation { ReturnedValue: { } returned } && returned.WithoutConversions() is ILocalReferenceOperation reference &&
                SymbolEqualityComparer.Default.Equals(reference.Local, local) && !InsideFunction(node, root))
            {
                return true;
            }
        }

        return false;
    }

    internal static bool IsReturned(IOperation value) => IsReturned(value, throughWrappers: true);

    /// <summary>
    /// <paramref name="value"/> leaves its method by <c>return</c>, through conversions and <c>?:</c>/<c>??</c> branches,
    /// and when <paramref name="throughWrappers"/> also inside a new object that wraps it.
    /// </summary>
    private static bool IsReturned(IOperation value, bool throughWrappers)
    {
        for (var parent = value.Parent; parent is not null; parent = parent.Parent)
        {
            switch (parent)
            {
                case IConversionOperation or IConditionalOperation or ICoalesceOperation or ISwitchExpressionArmOperation or ISwitchExpressionOperation:
                case IArgumentOperation or IObjectCreationOperation or IInvalidOperation when throughWrappers:
                    continue;
                case IReturnOperation:
                    // A lambda that returns a new timer is not a factory method: nothing says it runs per operation.
                    return !InsideFunction(parent, parent.Root());
                default:
                    return false;
            }
        }

        return false;
    }

    /// <summary>
    /// The type re-arms the timer stored in <paramref name="name"/> (<c>name.Change(...)</c> anywhere in its
    /// declarations): a one-shot timer re-armed from its callback or on activity paces work or watches a connection's
    /// idleness, which is not one timeout per operation. Read from the syntax, by name.
    /// </summary>
    private static bool IsRearmed(IOperation creation, string name)
    {
        var type = creation.Syntax.FirstAncestorOrSelf<TypeDeclarationSyntax>();
        if (type is null)
        {
            return true;
        }

        var bareName = BareName(name);
        foreach (var node in type.DescendantNodes())
        {
            var target = node switch
            {
                // timer.Change(...)
                InvocationExpressionSyntax { Expression: MemberAccessExpressionSyntax { Name.Identifier.ValueText: "Change" } access } => access.Expression,
                // timer?.Change(...)
                InvocationExpressionSyntax { Expression: MemberBindingExpressionSyntax { Name.Identifier.ValueText: "Change" }, Parent: ConditionalAccessExpressionSyntax conditional } => conditional.Expression,
                _ => null,
            };
            if (target is not null && ColdContext.RightmostName(target) is { } targetName && BareName(targetName) == bareName)
            {
                return true;
            }
        }

        return false;
    }

    /// <summary>
    /// A field's name without its prefix and with a lower-case first letter (<c>_reloadTimer</c>, <c>m_ReloadTimer</c>:
    /// <c>reloadTimer</c>), so that a local copy of the field (<c>var reloadTimer = _reloadTimer; reloadTimer.Change(...)</c>)
    /// names the same timer.
    /// </summary>
    private static string BareName(string name)
    {
        var start = name.StartsWith("m_", StringComparison.Ordinal) || name.StartsWith("s_", StringComparison.Ordinal) || name.StartsWith("t_", StringComparison.Ordinal) ? 2 : 0;
        while (start < name.Length && name[start] == '_')
        {
            start++;
        }

        return start >= name.Length ? name : char.ToLowerInvariant(name[start]) + name.Substring(start + 1);
    }

    /// <summary>
    /// The local that holds <paramref name="creation"/> is disposed by the code that created it (a <c>using</c> or a
    /// <c>Dispose()</c> call, outside lambdas). Not a <c>Dispose()</c> in a catch block alone: that disposes it only when
    /// something failed, and on the normal path the creator keeps it or hands it on (<c>var sub = new Sub(this); try {
    /// await SubscribeAsync(ct); return sub; } catch { await sub.DisposeAsync(); throw; }</c>: a subscription that outlives
    /// the call).
    /// </summary>
    internal static bool IsDisposedByCreator(IOperation creation, ILocalSymbol local)
    {
        var root = creation.Root();
        foreach (var node in root.Descendants())
        {
            switch (node)
            {
                case IUsingDeclarationOperation or IUsingOperation when Declares(node, local):
                    return true;
                case IInvocationOperation { TargetMethod.Name: "Dispose" or "DisposeAsync" } dispose when RefersTo(dispose.Instance, local) && !InsideFunction(dispose, root) && !InsideCatch(dispose, root):
                    return true;
            }
        }

        return false;
    }

    private static bool InsideCatch(IOperation operation, IOperation root)
    {
        for (var parent = operation.Parent; parent is not null && !ReferenceEquals(parent, root); parent = parent.Parent)
        {
            if (parent is ICatchClauseOperation)
            {
                return true;
            }
        }

        return false;
    }

    /// <summary>
    /// The <c>using</c> declares <paramref name="local"/> as its resource, or takes the local itself as its resource
    /// (<c>using (timer) { work }</c>); not merely somewhere in its body.
    /// </summary>
    private static bool Declares(IOperation usingOperation, ILocalSymbol local)
    {
        if (usingOperation is IUsingOperation { Resources: var resource } &&
            resource.WithoutConversions() is ILocalReferenceOperation reference && SymbolEqualityComparer.Default.Equals(reference.Local, local))
        {
            return true;
        }

        var resources = usingOperation switch
        {
            IUsingOperation statement => statement.Resources,
            IUsingDeclarationOperation declaration => declaration.DeclarationGroup,
            _ => usingOperation,
        };
        foreach (var node in resources.DescendantsAndSelf())
        {
            if (node is IVariableDeclaratorOperation declarator && SymbolEqualityComparer.Default.Equals(declarator.Symbol, local))
            {
                return true;
            }
        }

        return false;
    }

    /// <summary><c>local.Dispose()</c> or <c>local?.Dispose()</c>.</summary>
    private static bool RefersTo(IOperation? instance, ILocalSymbol local)
    {
        return instance.ThroughConditionalAccess() is ILocalReferenceOperation reference && SymbolEqualityComparer.Default.Equals(reference.Local, local);
    }

    private static bool InsideFunction(IOperation operation, IOperation root)
    {
        for (var parent = operation.Parent; parent is not null && !ReferenceEquals(parent, root); parent = parent.Parent)
        {
            if (parent is IAnonymousFunctionOperation)
            {
                return true;
            }
        }

        return false;
    }
}
