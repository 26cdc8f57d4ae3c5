using CoarseTimers.Analyzers.Shared;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.Diagnostics;
using Microsoft.CodeAnalysis.Operations;

namespace CoarseTimers.Analyzers.Rules;

/// <summary>
/// CT0002: <c>new CancellationTokenSource(TimeSpan|int)</c> and <c>CancellationTokenSource.CancelAfter(TimeSpan|int)</c>
/// on a hot path. A timeout source held in a local of the member is a per-operation timeout (rule 3).
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
    }

    private static void AnalyzeCreation(OperationAnalysisContext context, RuleContext rule)
    {
        var creation = (IObjectCreationOperation)context.Operation;
        var constructor = creation.Constructor;
        if (constructor is null || creation.Arguments.Length == 0 ||
            !SymbolEqualityComparer.Default.Equals(constructor.ContainingType, rule.Symbols.CancellationTokenSource) ||
            rule.Symbols.TakesTimeProvider(constructor))
        {
            return;
        }

        var perOperation = IsHeldInLocal(creation) ? HotPathRules.PerOperationTimeout : HotPathRules.None;
        Report(context, rule, creation, TimeoutConstants.Argument(creation.Arguments, 0), perOperation, ConstructorKind);
    }

    private static void AnalyzeCancelAfter(OperationAnalysisContext context, RuleContext rule)
    {
        var invocation = (IInvocationOperation)context.Operation;
        var method = invocation.TargetMethod;
        if (method.Name != "CancelAfter" || invocation.Arguments.Length != 1 ||
            !SymbolEqualityComparer.Default.Equals(method.ContainingType, rule.Symbols.CancellationTokenSource))
        {
            return;
        }

        var perOperation = invocation.Instance is ILocalReferenceOperation ? HotPathRules.PerOperationTimeout : HotPathRules.None;
        Report(context, rule, invocation, TimeoutConstants.Argument(invocation.Arguments, 0), perOperation, CancelAfterKind);
    }

    private static void Report(OperationAnalysisContext context, RuleContext rule, IOperation operation, IOperation? timeout, HotPathRules perOperation, string kind)
    {
        var rules = HotPathRules.Loop | HotPathRules.PerItemDelegate | HotPathRules.Declared | perOperation;
        var reason = HotPathModel.Reason(operation, context.ContainingSymbol, rule.Symbols, rule.Settings(operation.Syntax.SyntaxTree), rules,
            TimeoutConstants.Milliseconds(timeout, rule.Symbols));
        if (reason is not null)
        {
            context.ReportDiagnostic(Diagnostic.Create(RuleDescriptors.TimeoutCancellationTokenSource, operation.Syntax.GetLocation(), kind, reason));
        }
    }

    /// <summary>The new source initializes or is assigned to a local (declarations, <c>using</c> included).</summary>
    private static bool IsHeldInLocal(IOperation creation)
    {
        var parent = creation.Parent;
        while (parent is IConversionOperation)
        {
            parent = parent.Parent;
        }

        return parent switch
        {
            IVariableInitializerOperation { Parent: IVariableDeclaratorOperation } => true,
            ISimpleAssignmentOperation { Target: ILocalReferenceOperation } => true,
            _ => false,
        };
    }
}
