using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CSharp;
using Microsoft.CodeAnalysis.CSharp.Syntax;

namespace CoarseTimers.CodeFixes.Shared;

/// <summary>Rewrites <c>new T(...) { ... }</c> or target-typed <c>new(...)</c> to <c>new U(...) { ... }</c>, trivia kept.</summary>
internal static class ObjectCreationRewrite
{
    public static ExpressionSyntax WithType(BaseObjectCreationExpressionSyntax creation, TypeSyntax type) => creation switch
    {
        ObjectCreationExpressionSyntax explicitCreation => explicitCreation.WithType(type.WithTriviaFrom(explicitCreation.Type)),
        _ => SyntaxFactory.ObjectCreationExpression(
                creation.NewKeyword.WithTrailingTrivia(SyntaxFactory.ElasticSpace),
                type,
                creation.ArgumentList ?? SyntaxFactory.ArgumentList(),
                creation.Initializer)
            .WithTriviaFrom(creation),
    };
}
