using CoarseTimers.Analyzers.Baseline;
using CoarseTimers.Analyzers.Internals;
using CoarseTimers.Analyzers.Shared;
using Microsoft.CodeAnalysis;
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
    }

    private static void Analyze(OperationAnalysisContext context, RuleContext rule)
    {
        var invocation = (IInvocationOperation)context.Operation;
        var symbols = rule.Symbols;
        if (!Matches(invocation, symbols))
        {
            return;
        }

        var rules = HotPathRules.LoopsDelegatesDeclared;
        if (IsWhenAnyArgument(invocation, symbols))
        {
            rules |= HotPathRules.PerOperationTimeout;
        }

        var delay = invocation.Arguments.ArgumentFor(0);
        var reason = HotPathModel.Reason(invocation, context.ContainingSymbol, symbols, rule.Settings(invocation.Syntax.SyntaxTree), rules, TimeoutConstants.Milliseconds(delay, symbols));
        if (reason is not null)
        {
            context.ReportDiagnostic(Diagnostic.Create(RuleDescriptors.TaskDelay, invocation.Syntax.GetLocation(), BaselineMember.Properties(context.ContainingSymbol), reason));
        }
    }

    /// <summary>The rule's call, for the analyzer and the code fix alike: <c>Task.Delay</c> without a <c>TimeProvider</c>.</summary>
    internal static bool Matches(IInvocationOperation invocation, KnownSymbols symbols) =>
        invocation.TargetMethod.IsMethodOf(symbols.Task, "Delay") && !symbols.TakesTimeProvider(invocation.TargetMethod);

    /// <summary><c>Task.WhenAny(work, Task.Delay(t))</c>: a timeout shim, created once per call by construction.</summary>
    private static bool IsWhenAnyArgument(IOperation operation, KnownSymbols symbols)
    {
        var parent = operation.ConsumerSkippingConversions();
        while (parent is IArrayInitializerOperation or IArrayCreationOperation)
        {
            parent = parent.ConsumerSkippingConversions();
        }

        return parent is IArgumentOperation { Parent: IInvocationOperation whenAny } &&
               whenAny.TargetMethod.IsMethodOf(symbols.Task, "WhenAny");
    }
}
