using System.Collections.Immutable;
using System.Composition;
using System.Threading;
using System.Threading.Tasks;
using CoarseTimers.Analyzers;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CodeActions;
using Microsoft.CodeAnalysis.CodeFixes;
using Microsoft.CodeAnalysis.CSharp;
using Microsoft.CodeAnalysis.CSharp.Syntax;
using Microsoft.CodeAnalysis.Simplification;

namespace CoarseTimers.CodeFixes.Fixes;

/// <summary>CT0001: rewrites <c>Task.Delay(...)</c> to <c>CoarseTimer.Delay(...)</c>.</summary>
[ExportCodeFixProvider(LanguageNames.CSharp, Name = nameof(TaskDelayCodeFixProvider)), Shared]
public sealed class TaskDelayCodeFixProvider : CodeFixProvider
{
    public override ImmutableArray<string> FixableDiagnosticIds { get; } = ImmutableArray.Create(DiagnosticIds.TaskDelay);

    public override FixAllProvider GetFixAllProvider() => WellKnownFixAllProviders.BatchFixer;

    public override async Task RegisterCodeFixesAsync(CodeFixContext context)
    {
        var root = await context.Document.GetSyntaxRootAsync(context.CancellationToken).ConfigureAwait(false);
        if (root?.FindNode(context.Span, getInnermostNodeForTie: true) is not InvocationExpressionSyntax invocation)
        {
            return;
        }

        context.RegisterCodeFix(
            CodeAction.Create("Use CoarseTimer.Delay", ct => RewriteAsync(context.Document, invocation, ct), equivalenceKey: DiagnosticIds.TaskDelay),
            context.Diagnostics);
    }

    private static async Task<Document> RewriteAsync(Document document, InvocationExpressionSyntax invocation, CancellationToken cancellationToken)
    {
        var root = await document.GetSyntaxRootAsync(cancellationToken).ConfigureAwait(false);
        var target = SyntaxFactory.ParseExpression("global::CoarseTimers.CoarseTimer.Delay").WithAdditionalAnnotations(Simplifier.Annotation);
        var rewritten = invocation.WithExpression(target.WithTriviaFrom(invocation.Expression));
        return document.WithSyntaxRoot(root!.ReplaceNode(invocation, rewritten));
    }
}
