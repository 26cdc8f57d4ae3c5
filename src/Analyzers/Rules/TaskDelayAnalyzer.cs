using CoarseTimers.Analyzers.Baseline;
using CoarseTimers.Analyzers.Internals;
using CoarseTimers.Analyzers.Shared;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CSharp.Syntax;
using Microsoft.CodeAnalysis.Diagnostics;
using Microsoft.CodeAnalysis.Operations;

namespace CoarseTimers.Analyzers.Rules;

/// <summary>CT0001: <c>Task.Delay(int|TimeSpan[, CancellationToken])</c> on a hot path.</summary>
[DiagnosticAnalyzer(LanguageNames.CSharp)]
public sealed class TaskDelayAnalyzer : CoarseTimersAnalyzer
{
    public TaskDelayAnalyzer()
        : base(RuleDescriptors.TaskDelay)
    {
    }

    private protected override bool IsValid(KnownSymbols symbols) => symbols.Task is not null;

    private protected override void Register(CompilationStartAnalysisContext context, RuleContext rule)
    {
        context.RegisterOperationAction(ctx => Analyze(ctx, rule), OperationKind.Invocation);
        context.RegisterOperationAction(ctx => AnalyzeUnresolved(ctx, rule), OperationKind.Invalid);
    }

    private static void Analyze(OperationAnalysisContext context, RuleContext rule)
    {
        var invocation = (IInvocationOperation)context.Operation;
        if (Matches(invocation, rule.Symbols))
        {
            Report(context, rule, invocation, invocation.Arguments.ArgumentFor(0));
        }
    }

    /// <summary>
    /// <c>Task.Delay(delay[, cancellationToken])</c> whose delay has an unresolved type (<see cref="UnresolvedCall"/>).
    /// A second argument that is not a token (a <c>TimeProvider</c>, or unresolved itself) is left alone.
    /// </summary>
    private static void AnalyzeUnresolved(OperationAnalysisContext context, RuleContext rule)
    {
        var operation = (IInvalidOperation)context.Operation;
        var count = UnresolvedCall.Arguments(operation).Count;
        if (count is 1 or 2 && UnresolvedCall.Calls(operation, rule.Symbols.Task, "Delay", context.CancellationToken) &&
            (count == 1 || UnresolvedCall.Argument(operation, 1)?.Type.Is(rule.Symbols.CancellationToken) == true))
        {
            Report(context, rule, operation, UnresolvedCall.Argument(operation, 0));
        }
    }

    private static void Report(OperationAnalysisContext context, RuleContext rule, IOperation invocation, IOperation? delay)
    {
        var symbols = rule.Symbols;
        var milliseconds = TimeoutConstants.Milliseconds(delay, symbols);
        if (milliseconds == 0 || TimerLifetime.IsInfinite(delay, symbols))
        {
            // Neither queues a timer: an infinite delay waits for its token alone, and a zero delay is an already
            // completed task on every runtime (.NET, .NET Framework, Mono).
            return;
        }

        // Raced in WhenAny: a timeout, created per call and usually abandoned. Awaited on its own: a sleep, judged by
        // what it paces (a short constant delay in a loop polls; a long, configured or backoff delay does not).
        // Dropped (`Task.Delay(50);` with no await): it waits for nothing, so it paces nothing, yet queues a timer each
        // time it runs; in a loop, one per turn.
        var dropped = IsDropped(invocation);
        var rules = IsWhenAnyArgument(invocation, symbols)
            ? HotPathRules.LoopsDelegatesDeclared | HotPathRules.PerOperationTimeout | HotPathRules.RunLoopPaces
            : HotPathRules.LoopsDelegatesDeclared | (dropped ? HotPathRules.None : HotPathRules.Sleep);
        var reason = HotPathModel.Reason(invocation, context.ContainingSymbol, symbols, rule.Settings(invocation.Syntax.SyntaxTree), rules,
            dropped ? null : milliseconds, cancellationToken: context.CancellationToken);
        if (reason is not null && !TimerLifetime.IsInfiniteAtEveryCall(delay, symbols, context.CancellationToken))
        {
            context.ReportDiagnostic(Diagnostic.Create(RuleDescriptors.TaskDelay, invocation.Syntax.GetLocation(), BaselineMember.Properties(context.ContainingSymbol), reason));
        }
    }

    /// <summary>The delay's task is dropped: a statement of its own, or assigned to a discard (<c>_ = Task.Delay(t);</c>).</summary>
    private static bool IsDropped(IOperation invocation) => invocation.ConsumerSkippingConversions() switch
    {
        IExpressionStatementOperation => true,
        ISimpleAssignmentOperation { Target: IDiscardOperation, Parent: IExpressionStatementOperation } => true,
        _ => false,
    };

    /// <summary>The rule's call, for the analyzer and the code fix alike: <c>Task.Delay</c> without a <c>TimeProvider</c>.</summary>
    internal static bool Matches(IInvocationOperation invocation, KnownSymbols symbols) =>
        invocation.TargetMethod.IsMethodOf(symbols.Task, "Delay") && !symbols.TakesTimeProvider(invocation.TargetMethod);

    /// <summary>
    /// <c>Task.WhenAny(work, Task.Delay(t))</c>, also through a local (<c>var timeout = Task.Delay(t); await
    /// Task.WhenAny(work, timeout)</c>) or a local collection that is raced (<c>tasks.Add(timeout); await
    /// Task.WhenAny(tasks)</c>, <c>new List&lt;Task&gt; { work, Task.Delay(t) }</c>): a timeout shim, created once per call by
    /// construction. <paramref name="depth"/> bounds the hops through locals (aliases of aliases).
    /// </summary>
    private static bool IsWhenAnyArgument(IOperation operation, KnownSymbols symbols, int depth = 3)
    {
        // Up through what holds the task without racing it yet: a branch of `?:`, `??` or a switch expression
        // (TimerLifetime.SelectedBy), an array, a collection expression (`[work, Task.Delay(t)]`, read by its syntax:
        // Roslyn 4.8 has no operation for it).
        var value = TimerLifetime.SelectedBy(operation);
        var parent = value.ConsumerSkippingConversions();
        while (parent is IArrayInitializerOperation or IArrayCreationOperation || parent?.Syntax is CollectionExpressionSyntax && parent is not IArgumentOperation ||
               parent is not null && IsParamsCollection(parent))
        {
            value = TimerLifetime.SelectedBy(parent);
            parent = value.ConsumerSkippingConversions();
        }

        if (parent is IArgumentOperation { Parent: IInvocationOperation whenAny } && whenAny.TargetMethod.IsMethodOf(symbols.Task, "WhenAny"))
        {
            return true;
        }

        if (depth <= 0)
        {
            return false;
        }

        // An element added to a collection: the collection is what is raced.
        if (parent is IArgumentOperation { Parent: IInvocationOperation { TargetMethod.Name: "Add" } add })
        {
            switch (add.Instance)
            {
                case ILocalReferenceOperation collection:
                    return IsRacedLocal(collection.Local, collection, symbols, depth - 1);
                case IInstanceReferenceOperation { ReferenceKind: InstanceReferenceKind.ImplicitReceiver } when
                    add.Parent is IObjectOrCollectionInitializerOperation { Parent: IObjectCreationOperation creation }:
                    return IsWhenAnyArgument(creation, symbols, depth - 1);
                default:
                    return false;
            }
        }

        return Storage.Of(value) is ILocalSymbol local && IsRacedLocal(local, value, symbols, depth - 1);
    }

    /// <summary>
    /// The collection a newer compiler builds for a C# 13 <c>params</c> collection in its expanded form
    /// (<c>Task.WhenAny(work, other, Task.Delay(t))</c> bound to .NET 9's <c>params ReadOnlySpan&lt;Task&gt;</c>): an implicit
    /// operation between the argument and the listed values, of a kind Roslyn 4.8 does not name.
    /// </summary>
    private static bool IsParamsCollection(IOperation operation) =>
        operation is { IsImplicit: true, Parent: IArgumentOperation } and not (IArgumentOperation or IConversionOperation);

    // Some reference to the local, in its member, is raced in WhenAny (directly, or as above).
    private static bool IsRacedLocal(ILocalSymbol local, IOperation within, KnownSymbols symbols, int depth)
    {
        foreach (var node in within.Root().Descendants())
        {
            if (node is ILocalReferenceOperation reference && SymbolEqualityComparer.Default.Equals(reference.Local, local) &&
                !ReferenceEquals(reference, within) && IsWhenAnyArgument(reference, symbols, depth))
            {
                return true;
            }
        }

        return false;
    }
}
