using CoarseTimers.Analyzers.Baseline;
using CoarseTimers.Analyzers.Internals;
using CoarseTimers.Analyzers.Shared;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CSharp.Syntax;
using Microsoft.CodeAnalysis.Diagnostics;
using Microsoft.CodeAnalysis.Operations;

namespace CoarseTimers.Analyzers.Rules;

/// <summary>
/// CT0002: <c>new CancellationTokenSource(TimeSpan|int)</c> and <c>CancellationTokenSource.CancelAfter(TimeSpan|int)</c>
/// on a hot path. Rule 3's evidence is the source's lifetime (<see cref="TimerLifetime"/>): held in a local, returned by a
/// factory, held by its object, or a reused source re-armed with <c>CancelAfter</c>. Infinite timeouts are never flagged.
/// </summary>
[DiagnosticAnalyzer(LanguageNames.CSharp)]
public sealed class TimeoutCancellationTokenSourceAnalyzer : CoarseTimersAnalyzer
{
    internal const string ConstructorKind = "new CancellationTokenSource(timeout)";
    internal const string CancelAfterKind = "CancelAfter";

    public TimeoutCancellationTokenSourceAnalyzer()
        : base(RuleDescriptors.TimeoutCancellationTokenSource)
    {
    }

    private protected override bool IsValid(KnownSymbols symbols) => symbols.CancellationTokenSource is not null;

    private protected override void Register(CompilationStartAnalysisContext context, RuleContext rule)
    {
        context.RegisterOperationAction(ctx => AnalyzeCreation(ctx, rule), OperationKind.ObjectCreation);
        context.RegisterOperationAction(ctx => AnalyzeCancelAfter(ctx, rule), OperationKind.Invocation);
        context.RegisterOperationAction(ctx => AnalyzeUnresolved(ctx, rule), OperationKind.Invalid);
    }

    private static void AnalyzeCreation(OperationAnalysisContext context, RuleContext rule)
    {
        var creation = (IObjectCreationOperation)context.Operation;
        if (!IsTimeoutCreation(creation, rule.Symbols))
        {
            return;
        }

        Report(context, rule, creation, creation.Arguments.ArgumentFor(0), TimerLifetime.OfSource(creation), ConstructorKind);
    }

    private static void AnalyzeCancelAfter(OperationAnalysisContext context, RuleContext rule)
    {
        var invocation = (IInvocationOperation)context.Operation;
        if (!IsCancelAfter(invocation, rule.Symbols) || TimeProviderSources.Holds(invocation.Instance, rule.Symbols, context.CancellationToken))
        {
            return;
        }

        Report(context, rule, invocation, invocation.Arguments.ArgumentFor(0), TimerLifetime.OfCancelAfter(invocation), CancelAfterKind);
    }

    /// <summary>
    /// A creation or <c>CancelAfter</c> whose timeout's type is unresolved (<see cref="UnresolvedCall"/>): one argument,
    /// which can only be the timeout (<c>int</c> or <c>TimeSpan</c>).
    /// </summary>
    private static void AnalyzeUnresolved(OperationAnalysisContext context, RuleContext rule)
    {
        var operation = (IInvalidOperation)context.Operation;
        if (UnresolvedCall.Arguments(operation).Count != 1 || !MayBeTimeout(UnresolvedCall.Argument(operation, 0), rule.Symbols))
        {
            return;
        }

        if (UnresolvedCall.Calls(operation, rule.Symbols.CancellationTokenSource, methodName: null, context.CancellationToken))
        {
            Report(context, rule, operation, UnresolvedCall.Argument(operation, 0), TimerLifetime.OfSource(operation), ConstructorKind);
        }
        else if (UnresolvedCall.Calls(operation, rule.Symbols.CancellationTokenSource, "CancelAfter", context.CancellationToken))
        {
            Report(context, rule, operation, UnresolvedCall.Argument(operation, 0), TimerLifetime.OfCancelAfterOn(UnresolvedCall.Receiver(operation, context.CancellationToken)), CancelAfterKind);
        }
        else if (operation.Syntax is InvocationExpressionSyntax { Expression: MemberAccessExpressionSyntax { Name.Identifier.ValueText: "CancelAfter" } } &&
                 UnresolvedCall.Receiver(operation, context.CancellationToken) is { } receiver &&
                 UnresolvedCall.IsLocalOfType(receiver, rule.Symbols.CancellationTokenSource, context.CancellationToken))
        {
            // A source in a local whose declared type the compiler could not infer, though every value it can hold is one.
            Report(context, rule, operation, UnresolvedCall.Argument(operation, 0), TimerLifetime.OfCancelAfterOn(receiver), CancelAfterKind);
        }
    }

    /// <summary>
    /// The fallback is for a timeout, or a receiver, whose type the compilation lacks. An argument of a known type that
    /// no timeout overload takes (a string, a bool, <c>null</c>) is a mistake being typed, not a timeout.
    /// </summary>
    private static bool MayBeTimeout(IOperation? argument, KnownSymbols symbols)
    {
        var value = argument.WithoutConversions();
        return value is not null && !(value.ConstantValue.HasValue && value.ConstantValue.Value is null) &&
               (value.Type is null or { TypeKind: TypeKind.Error } or { SpecialType: SpecialType.System_Int32 } ||
                SymbolEqualityComparer.Default.Equals(value.Type, symbols.TimeSpan));
    }

    /// <summary><paramref name="lifetime"/> is the timer-lifetime evidence for rule 3 (<see cref="TimerLifetime"/>), if any.</summary>
    private static void Report(OperationAnalysisContext context, RuleContext rule, IOperation operation, IOperation? timeout, string? lifetime, string kind)
    {
        // An infinite timeout queues no timer.
        if (TimerLifetime.IsInfinite(timeout, rule.Symbols))
        {
            return;
        }

        var rules = HotPathRules.LoopsDelegatesDeclared | (lifetime is null ? HotPathRules.None : HotPathRules.PerOperationTimeout);
        var reason = HotPathModel.Reason(operation, context.ContainingSymbol, rule.Symbols, rule.Settings(operation.Syntax.SyntaxTree), rules,
            TimeoutConstants.Milliseconds(timeout, rule.Symbols), lifetime, context.CancellationToken);
        if (reason is not null && !TimerLifetime.IsInfiniteAtEveryCall(timeout, rule.Symbols, context.CancellationToken))
        {
            context.ReportDiagnostic(Diagnostic.Create(RuleDescriptors.TimeoutCancellationTokenSource, operation.Syntax.GetLocation(), BaselineMember.Properties(context.ContainingSymbol), kind, reason));
        }
    }

    /// <summary>The rule's first call, for the analyzer and the code fix alike: a BCL source created with a timeout (no <c>TimeProvider</c>).</summary>
    internal static bool IsTimeoutCreation(IObjectCreationOperation creation, KnownSymbols symbols) =>
        creation.Constructor is { } constructor && creation.Arguments.Length > 0 &&
        constructor.ContainingType.Is(symbols.CancellationTokenSource) && !symbols.TakesTimeProvider(constructor);

    /// <summary>The rule's second call, for the analyzer and the code fix alike: <c>CancellationTokenSource.CancelAfter(TimeSpan|int)</c>.</summary>
    internal static bool IsCancelAfter(IInvocationOperation invocation, KnownSymbols symbols) =>
        invocation.TargetMethod.IsMethodOf(symbols.CancellationTokenSource, "CancelAfter") && invocation.Arguments.Length == 1;
}
