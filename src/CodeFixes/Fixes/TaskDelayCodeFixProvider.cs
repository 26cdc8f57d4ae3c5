using System.Collections.Generic;
using System.Composition;
using System.Threading;
using CoarseTimers.Analyzers;
using CoarseTimers.Analyzers.Rules;
using CoarseTimers.Analyzers.Shared;
using CoarseTimers.CodeFixes.Shared;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CodeFixes;
using Microsoft.CodeAnalysis.Operations;

namespace CoarseTimers.CodeFixes.Fixes;

/// <summary>CT0001: <c>Task.Delay(...)</c> to <c>CoarseTimer.Delay(...)</c>, same arguments (all four overloads match).</summary>
[ExportCodeFixProvider(Microsoft.CodeAnalysis.LanguageNames.CSharp, Name = nameof(TaskDelayCodeFixProvider)), Shared]
public sealed class TaskDelayCodeFixProvider : CoarseTimersCodeFixProvider
{
    public TaskDelayCodeFixProvider()
        : base(DiagnosticIds.TaskDelay, "Use CoarseTimer.Delay", static symbols => symbols.CoarseTimer)
    {
    }

    private protected override IReadOnlyList<DocumentEdit>? TryGetEdits(SyntaxNode node, SemanticModel model, KnownSymbols symbols, FixTargets targets, CancellationToken cancellationToken) =>
        SiteOperation<IInvocationOperation>(node, model, cancellationToken) is { } invocation && TaskDelayAnalyzer.Matches(invocation, symbols)
            ? StaticCallRewrite.Retarget(invocation, model, RuntimeNames.CoarseTimer)
            : null;
}
