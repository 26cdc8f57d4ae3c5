using System.Collections.Concurrent;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.Diagnostics;

namespace CoarseTimers.Analyzers.Shared;

/// <summary>
/// What one rule needs for one compilation: the BCL symbols and the options of each syntax tree, read once and cached.
/// </summary>
internal sealed class RuleContext
{
    private readonly AnalyzerConfigOptionsProvider _options;
    private readonly string _ruleId;
    private readonly ConcurrentDictionary<SyntaxTree, AnalyzerSettings> _settings = new();

    public RuleContext(Compilation compilation, AnalyzerOptions options, string ruleId)
    {
        Symbols = KnownSymbols.For(compilation);
        _options = options.AnalyzerConfigOptionsProvider;
        _ruleId = ruleId;
    }

    public KnownSymbols Symbols { get; }

    public AnalyzerSettings Settings(SyntaxTree tree) =>
        _settings.GetOrAdd(tree, t => AnalyzerSettings.Read(_options.GetOptions(t), _ruleId));
}
