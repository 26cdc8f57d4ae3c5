using System.Collections.Generic;
using System.Composition;
using System.Threading;
using CoarseTimers.Analyzers;
using CoarseTimers.CodeFixes.Shared;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CodeFixes;

namespace CoarseTimers.CodeFixes.Fixes;

/// <summary>CT0004: <c>SpinWait.SpinUntil(...)</c> to <c>SpinThenBlock.SpinUntil(...)</c>, same arguments (all overloads match).</summary>
[ExportCodeFixProvider(LanguageNames.CSharp, Name = nameof(SpinUntilCodeFixProvider)), Shared]
public sealed class SpinUntilCodeFixProvider : CoarseTimersCodeFixProvider
{
    public SpinUntilCodeFixProvider()
        : base(DiagnosticIds.SpinUntil, "Use SpinThenBlock.SpinUntil", RuntimeNames.SpinThenBlock)
    {
    }

    private protected override IReadOnlyList<DocumentEdit>? TryGetEdits(SyntaxNode node, SemanticModel model, CancellationToken cancellationToken) =>
        StaticCallRewrite.Retarget(node, model, RuntimeNames.SpinThenBlock, "SpinUntil");
}
