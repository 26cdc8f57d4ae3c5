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

/// <summary>CT0004: <c>SpinWait.SpinUntil(...)</c> to <c>SpinThenBlock.SpinUntil(...)</c>, same arguments (all overloads match).</summary>
[ExportCodeFixProvider(LanguageNames.CSharp, Name = nameof(SpinUntilCodeFixProvider)), Shared]
public sealed class SpinUntilCodeFixProvider : CoarseTimersCodeFixProvider
{
    public SpinUntilCodeFixProvider()
        : base(DiagnosticIds.SpinUntil, "Use SpinThenBlock.SpinUntil", static symbols => symbols.SpinThenBlock)
    {
    }

    private protected override IReadOnlyList<DocumentEdit>? TryGetEdits(SyntaxNode node, SemanticModel model, KnownSymbols symbols, FixTargets targets, CancellationToken cancellationToken) =>
        SiteOperation<IInvocationOperation>(node, model, cancellationToken) is { } invocation && SpinUntilAnalyzer.Matches(invocation, symbols)
            ? StaticCallRewrite.Retarget(invocation, model, RuntimeNames.SpinThenBlock)
            : null;
}
