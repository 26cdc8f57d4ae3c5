using CoarseTimers.Analyzers.Baseline;
using CoarseTimers.Analyzers.Internals;
using CoarseTimers.Analyzers.Shared;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.Diagnostics;
using Microsoft.CodeAnalysis.Operations;

namespace CoarseTimers.Analyzers.Rules;

/// <summary>CT0003: <c>new System.Threading.Timer(...)</c>, every constructor, on a hot path.</summary>
[DiagnosticAnalyzer(LanguageNames.CSharp)]
public sealed class ThreadingTimerAnalyzer : CoarseTimersAnalyzer
{
    public ThreadingTimerAnalyzer()
        : base(RuleDescriptors.ThreadingTimer)
    {
    }

    private protected override bool IsValid(KnownSymbols symbols) => symbols.Timer is not null;

    private protected override void Register(CompilationStartAnalysisContext context, RuleContext rule)
    {
        context.RegisterOperationAction(ctx => Analyze(ctx, rule), OperationKind.ObjectCreation);
        context.RegisterOperationAction(ctx => AnalyzeUnresolved(ctx, rule), OperationKind.Invalid);
    }

    private static void Analyze(OperationAnalysisContext context, RuleContext rule)
    {
        var creation = (IObjectCreationOperation)context.Operation;
        if (Matches(creation, rule.Symbols))
        {
            Report(context, rule, creation, creation.Arguments.ArgumentFor(2), creation.Arguments.ArgumentFor(3));
        }
    }

    /// <summary>
    /// <c>new Timer(callback, state, dueTime, period)</c> whose due time or period has an unresolved type
    /// (<see cref="UnresolvedCall"/>): every four-argument constructor takes them in that order.
    /// </summary>
    private static void AnalyzeUnresolved(OperationAnalysisContext context, RuleContext rule)
    {
        var operation = (IInvalidOperation)context.Operation;
        if (UnresolvedCall.Arguments(operation).Count == 4 && UnresolvedCall.Calls(operation, rule.Symbols.Timer, methodName: null, context.CancellationToken))
        {
            Report(context, rule, operation, UnresolvedCall.Argument(operation, 2), UnresolvedCall.Argument(operation, 3));
        }
    }

    private static void Report(OperationAnalysisContext context, RuleContext rule, IOperation creation, IOperation? dueTime, IOperation? period)
    {
        // A disarmed timer (no or infinite due time) still takes the timer-queue lock when created, so it is not skipped.
        // A one-shot timer used as a timeout (disposed by its creator, or made by a factory) is per operation (rule 3).
        // The due time paces a loop that creates one timer per period.
        var lifetime = TimerLifetime.OfTimer(creation, TimerLifetime.PeriodOf(period, rule.Symbols));
        if (lifetime == TimerLifetime.FactoryTimeout && context.ContainingSymbol is IMethodSymbol factory &&
            TimerLifetime.CallersPassAPeriod(factory, dueTime, period, rule.Symbols, context.CancellationToken))
        {
            // A factory whose callers all ask for a ticker makes tickers.
            lifetime = null;
        }

        if (lifetime is TimerLifetime.FactoryTimeout or TimerLifetime.InstanceTimeout && TimerLifetime.CallbackLambda(creation) is { } callback &&
            rule.Symbols.Callers.RearmsItsOwnTimer(callback))
        {
            // A one-shot timer its own callback re-arms (`self.Change(next, Infinite)` after each run) is a pacer that
            // never overlaps its runs, one per poller or subscription, not a timeout that is usually cancelled.
            lifetime = null;
        }

        if (lifetime is TimerLifetime.InstanceTimeout && context.ContainingSymbol is IMethodSymbol { MethodKind: MethodKind.Constructor } &&
            rule.Symbols.Callers.StartsTicker(creation))
        {
            // A one-shot timer armed beside a ticker in a constructor is a service's delayed start, once per service.
            lifetime = null;
        }

        if (lifetime is null && Storage.Of(creation) is IFieldSymbol { IsStatic: false } or IPropertySymbol { IsStatic: false } &&
            context.ContainingSymbol.ContainingType is { } owner &&
            PerOperationObject.Reason(owner, rule.Symbols, rule.Settings, context.CancellationToken) is { } creator)
        {
            // Any timer of an object created per operation (a keep-alive per lock, a heartbeat per execution) is one per
            // operation, and usually disposed with its object before it fires.
            lifetime = TimerLifetime.HeldByPerOperationObject(creator);
        }

        var rules = HotPathRules.LoopsDelegatesDeclared | (lifetime is null ? HotPathRules.None : HotPathRules.PerOperationTimeout);
        var reason = HotPathModel.Reason(creation, context.ContainingSymbol, rule.Symbols, rule.Settings(creation.Syntax.SyntaxTree),
            rules, TimeoutConstants.Milliseconds(dueTime, rule.Symbols), lifetime, context.CancellationToken);
        if (reason is not null)
        {
            context.ReportDiagnostic(Diagnostic.Create(RuleDescriptors.ThreadingTimer, creation.Syntax.GetLocation(), BaselineMember.Properties(context.ContainingSymbol), reason));
        }
    }

    /// <summary>The rule's call, for the analyzer and the code fix alike: any constructor of <c>System.Threading.Timer</c>.</summary>
    internal static bool Matches(IObjectCreationOperation creation, KnownSymbols symbols) => creation.Constructor?.ContainingType.Is(symbols.Timer) == true;
}
