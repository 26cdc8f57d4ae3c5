using System.Collections.Immutable;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.Diagnostics;

namespace CoarseTimers.Analyzers.Shared;

/// <summary>
/// What every rule's analyzer does the same way: skip generated code, run concurrently, resolve symbols and options once
/// per compilation (<see cref="RuleContext"/>) and stop early when the BCL type it looks for is absent. A rule supplies
/// its descriptor, that type, and its operation actions.
/// </summary>
public abstract class CoarseTimersAnalyzer : DiagnosticAnalyzer
{
    private readonly DiagnosticDescriptor _rule;

    private protected CoarseTimersAnalyzer(DiagnosticDescriptor rule)
    {
        _rule = rule;
        SupportedDiagnostics = ImmutableArray.Create(rule);
    }

    public sealed override ImmutableArray<DiagnosticDescriptor> SupportedDiagnostics { get; }

    public sealed override void Initialize(AnalysisContext context)
    {
        context.ConfigureGeneratedCodeAnalysis(GeneratedCodeAnalysisFlags.None);
        context.EnableConcurrentExecution();
        context.RegisterCompilationStartAction(start =>
        {
            var rule = new RuleContext(start.Compilation, start.Options, _rule.Id);
            if (IsValid(rule.Symbols))
            {
                Register(start, rule);
            }
        });
    }

    /// <summary>False when the compilation lacks what the rule matches: nothing is registered then.</summary>
    private protected abstract bool IsValid(KnownSymbols symbols);

    /// <summary>Registers the rule's operation actions for one compilation.</summary>
    private protected abstract void Register(CompilationStartAnalysisContext context, RuleContext rule);
}
