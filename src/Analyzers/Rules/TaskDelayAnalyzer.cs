using System.Collections.Immutable;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.Diagnostics;
using Microsoft.CodeAnalysis.Operations;

namespace CoarseTimers.Analyzers.Rules;

/// <summary>CT0001: <c>Task.Delay</c> on a hot path.</summary>
[DiagnosticAnalyzer(LanguageNames.CSharp)]
public sealed class TaskDelayAnalyzer : DiagnosticAnalyzer
{
    public override ImmutableArray<DiagnosticDescriptor> SupportedDiagnostics { get; } = ImmutableArray.Create(RuleDescriptors.TaskDelay);

    public override void Initialize(AnalysisContext context)
    {
        context.ConfigureGeneratedCodeAnalysis(GeneratedCodeAnalysisFlags.None);
        context.EnableConcurrentExecution();
        context.RegisterCompilationStartAction(static start =>
        {
            var task = start.Compilation.GetTypeByMetadataName("System.Threading.Tasks.Task");
            if (task is null)
            {
                return;
            }

            start.RegisterOperationAction(ctx => AnalyzeInvocation(ctx, task), OperationKind.Invocation);
        });
    }

    private static void AnalyzeInvocation(OperationAnalysisContext context, INamedTypeSymbol task)
    {
        var invocation = (IInvocationOperation)context.Operation;
        var method = invocation.TargetMethod;
        if (method.Name != "Delay" || !SymbolEqualityComparer.Default.Equals(method.ContainingType, task))
        {
            return;
        }

        for (var parent = invocation.Parent; parent is not null; parent = parent.Parent)
        {
            if (parent is ILoopOperation)
            {
                context.ReportDiagnostic(Diagnostic.Create(RuleDescriptors.TaskDelay, invocation.Syntax.GetLocation(), "inside a loop"));
                return;
            }
        }
    }
}
